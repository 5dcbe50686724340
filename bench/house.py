"""The house in figures: how ``grader/`` is divided, for the layout's before and after.

Prints the number of modules and their lines, the largest modules, the functions
longer than LONG lines, and the classes with the most public methods. It reads the
source with ``ast`` and runs nothing of it.

    python bench/house.py [--top N]
"""

import argparse
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "grader"
LONG = 60  # lines: a function longer than this is listed


def modules() -> dict[str, ast.Module]:
    """Every module of the package, by its path under the package's parent."""
    return {str(path.relative_to(PACKAGE.parent)): ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(PACKAGE.rglob("*.py"))}


def lines(tree: ast.Module) -> int:
    return max((getattr(node, "end_lineno", 0) or 0 for node in ast.walk(tree)), default=0)


def functions(trees: dict[str, ast.Module]) -> list[tuple[int, str]]:
    """(length in lines, "module:name") of every function and method."""
    found = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                found.append((length, f"{name}:{node.name}"))
    return found


def classes(trees: dict[str, ast.Module]) -> list[tuple[int, str]]:
    """(public methods, "module:Class") of every class."""
    found = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                public = [item for item in node.body
                          if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                          and not item.name.startswith("_")]
                found.append((len(public), f"{name}:{node.name}"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=5, help="how many of each to list")
    top = parser.parse_args().top
    trees = modules()
    sizes = sorted(((lines(tree), name) for name, tree in trees.items()), reverse=True)
    lengths = sorted(functions(trees), reverse=True)
    long = [entry for entry in lengths if entry[0] > LONG]
    print(f"modules: {len(trees)}, lines: {sum(size for size, _ in sizes)}")
    print(f"functions: {len(lengths)}, median length: {lengths[len(lengths) // 2][0]} lines, "
          f"over {LONG} lines: {len(long)}")
    for title, rows in (("largest modules (lines)", sizes), (f"functions over {LONG} lines", long),
                        ("most public methods", sorted(classes(trees), reverse=True))):
        print(f"\n{title}:")
        for count, name in rows[:top]:
            print(f"  {count:5d}  {name}")


if __name__ == "__main__":
    main()
