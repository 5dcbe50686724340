"""The drawn game trees: their rules, the reference's searches on them, and
the smallest tree a failing search test shows, found again the same for the
same file."""

import re

from conftest import built_in_case, grade
from hypothesis import given, settings

from grader.games import tree
from grader.games.tree import rules
from grader.harness.lesson import trees
from grader.harness.lesson.alphabeta import AlphaBeta
from grader.harness.lesson.search import Search

# n0 (max) -> n1 (min, two leaves: n2, n3), n4 (a leaf)
SMALL = [[[], []], []]


def test_nodes_are_numbered_in_preorder_and_moves_are_parent_child_pairs():
    root = tree.from_data(SMALL)
    assert rules.numbered(SMALL) == [[1, 4], [2, 3], [], [], []]
    assert root.get_legal_moves() == [(0, 1), (0, 4)]
    child = root.forecast_move((0, 1))
    assert (child.node(), child.player()) == (1, 1)
    assert root.node() == 0  # forecast_move leaves its state as it was
    assert child.forecast_move((1, 3)).get_legal_moves() == []
    assert tree.label(child) == "n1"


def test_a_move_that_is_not_the_node_s_is_refused():
    root = tree.from_data(SMALL)
    for move in ((1, 2), (0, 2), (0, 9)):
        try:
            root.forecast_move(move)
        except ValueError as refused:
            assert str(move) in str(refused)
        else:
            raise AssertionError(f"{move} was played")


def test_a_leaf_is_lost_for_the_player_to_move():
    # max moves to n4, where min has no move: max wins; at n1 min moves to a
    # leaf where max is stuck: max loses. Max's best move is (0, 4).
    assert Search(None, tree).best_moves(tree.from_data(SMALL), None) == {(0, 4)}


@settings(max_examples=60, deadline=None)
@given(trees.trees())
def test_alpha_beta_s_value_is_minimax_s_and_it_tests_no_more_leaves(drawn):
    root = tree.from_data(drawn)
    for depth in (1, 2, 3):
        full, pruned = Search(None, tree), AlphaBeta(None, tree)
        best = full.best_moves(root, depth)
        calls, moves = pruned.decision(root, depth)
        assert moves <= best
        assert calls.total() <= full.decision(root, depth)[0].total()


def _tree_block(message):
    """The lines of the drawn tree in a test's message (one per node)."""
    block = message.split("The smallest game tree found", 1)[1].split("\n\n")[1]
    return [line for line in block.splitlines() if re.search(r"\bn\d+ ", line)]


def test_a_pruning_mistake_shows_a_tree_of_a_handful_of_nodes(graded_locally):
    report = graded_locally(built_in_case("alphabeta/prune_strict_bound"))
    [counts] = [t for t in report["tests"] if t["name"] == "test_call_counts"]
    nodes = _tree_block(counts["message"])
    assert 2 <= len(nodes) <= 7, nodes
    # the reference stops where v reaches the bound; the strict test goes on
    assert re.search(r"terminal_test: reference 0, yours 1", "\n".join(nodes))
    assert "prune_strict_bound" in counts["mistakes"]


def test_the_tree_is_found_again_for_the_same_file(graded_locally):
    case = built_in_case("alphabeta/root_alpha_not_updated")
    first, again = graded_locally(case), grade(case.exercise, case.path)  # graded anew
    shown = [[t["message"] for t in report["tests"]] for report in (first, again)]
    assert shown[0] == shown[1]
    assert "The smallest game tree found" in "".join(shown[0])


def test_a_clock_read_between_depths_only_shows_on_a_tree_with_a_coarse_clock(graded_locally):
    report = graded_locally(built_in_case("iterative_deepening/clock_ignored_in_search"))
    [moves] = [t for t in report["tests"] if t["name"] == "test_deepest_finished_depth"]
    nodes = _tree_block(moves["message"])
    assert 2 <= len(nodes) <= 7, nodes
    # a tick of more than any threshold: depth d fits, d + 1 can't, for every threshold
    assert re.search(r"dropped by 21 at each terminal test: depths 1 to \d fit",
                     moves["message"])
