"""The service's signals: whom it tells of queued jobs, kept reports, changed rules."""

from grader.service.signals import Signal


class Pool:
    def __init__(self) -> None:
        self.woken: list[int] = []

    def wake(self, job_ids: list[int]) -> None:
        self.woken.extend(job_ids)


def test_each_listener_is_told_once_in_the_order_they_came():
    told: list[str] = []
    queued: Signal[[list[int]]] = Signal()
    pool = Pool()
    queued.listen(pool.wake)
    queued.listen(lambda job_ids: told.append(f"poster {job_ids}"))
    queued.listen(pool.wake)  # a restarted pool: still told once
    queued([1, 2])
    assert pool.woken == [1, 2] and told == ["poster [1, 2]"]

