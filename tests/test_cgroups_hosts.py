"""Where groups are made, by the host's mount table: cgroup v2 alone, v2 beside
v1, v1 alone (no group: the wall clock, said in every report). The tables and
the membership files are written here, their mount points folders of the test."""

import pytest
from conftest import solution

from grader import exercises, grading
from grader.harness.runtime.plugin import WALL_CLOCK_NOTE
from grader.sandbox import cgroups

V1 = ["cgroup {root}/cpu cgroup rw,relatime,cpu 0 0",
      "cgroup {root}/cpuacct cgroup rw,relatime,cpuacct 0 0",
      "cgroup {root}/freezer cgroup rw,relatime,freezer 0 0",
      "cgroup {root}/systemd cgroup rw,relatime,name=systemd 0 0"]
V1_MEMBERSHIP = ["3:freezer:/", "2:cpuacct:/", "1:cpu:/"]


def host(tmp_path, mounts, membership):
    """The mount table and membership file of a host (``{root}``: ``tmp_path``)."""
    table, member = tmp_path / "mounts", tmp_path / "cgroup"
    table.write_text("proc /proc proc rw 0 0\n" +
                     "".join(line.format(root=tmp_path) + "\n" for line in mounts))
    member.write_text("".join(line + "\n" for line in membership))
    return table, str(member)


def test_v2_alone_makes_groups_below_the_process_s_own(tmp_path):
    (tmp_path / "v2" / "grading.service").mkdir(parents=True)
    table, member = host(tmp_path, ["cgroup2 {root}/v2 cgroup2 rw,nsdelegate 0 0"],
                         ["0::/grading.service"])
    assert cgroups.v2_mount(table) == tmp_path / "v2"
    assert cgroups.hierarchy(table, member) == tmp_path / "v2" / "grading.service"
    assert cgroups.available(table, member) is None


def test_v2_beside_v1_makes_groups_in_the_v2_one(tmp_path):
    (tmp_path / "unified").mkdir()
    table, member = host(tmp_path, [*V1, "cgroup2 {root}/unified cgroup2 rw 0 0"],
                         [*V1_MEMBERSHIP, "0::/"])
    assert cgroups.hierarchy(table, member) == tmp_path / "unified"


def test_a_mount_point_with_a_space_is_read_as_the_kernel_writes_it(tmp_path):
    (tmp_path / "a b").mkdir()
    table, member = host(tmp_path, ["cgroup2 {root}/a\\040b cgroup2 rw 0 0"], ["0::/"])
    assert cgroups.hierarchy(table, member) == tmp_path / "a b"


def test_v1_alone_makes_no_group_and_says_why(tmp_path):
    for name in ("cpu", "cpuacct", "freezer"):  # writable v1 hierarchies are not used
        (tmp_path / name).mkdir()
    table, member = host(tmp_path, V1, V1_MEMBERSHIP)
    assert cgroups.v2_mount(table) is None
    with pytest.raises(cgroups.NoGroups, match="no cgroup v2 hierarchy is mounted"):
        cgroups.hierarchy(table, member)
    assert "cgroup v1 alone is not used" in cgroups.available(table, member)


def test_a_v2_group_that_can_t_be_written_makes_no_group(tmp_path):
    (tmp_path / "v2").mkdir()  # the process's own group is not there to be written
    table, member = host(tmp_path, ["cgroup2 {root}/v2 cgroup2 rw 0 0"], ["0::/user.slice"])
    assert "Delegate=yes" in cgroups.available(table, member)


def test_a_host_with_v1_alone_grades_on_the_wall_clock_and_says_so(tmp_path, monkeypatch):
    table, member = host(tmp_path, V1, V1_MEMBERSHIP)
    why = cgroups.available(table, member)
    assert why is not None
    monkeypatch.setattr(cgroups, "available", lambda: why)  # this host's table, as if it were v1's
    exercise = exercises.load("helpers")
    made = grading.grade(exercise, solution("helpers"), grading.open_sandbox("local"),
                         exercise.limits)
    assert made["score"] == made["max_score"]  # graded, not refused
    assert made["sandbox"]["clock"] == "wall"
    assert f"{WALL_CLOCK_NOTE}." in made["notes"]
