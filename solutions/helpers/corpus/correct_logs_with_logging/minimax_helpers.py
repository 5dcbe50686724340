"""Right helpers that log every call through logging, which walks the call
stack (findCaller, stack_info) as it formats each record."""
import logging

logging.basicConfig(level=logging.DEBUG,
                    format="%(levelname)s %(module)s.%(funcName)s:%(lineno)d %(message)s")
log = logging.getLogger("helpers")


def terminal_test(gameState):
    over = not gameState.get_legal_moves()
    log.debug("terminal_test -> %s", over)
    return over


def min_value(gameState):
    if terminal_test(gameState):
        log.info("min level: the game is over")
        return 1
    v = float("inf")
    for move in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(move)))
    log.debug("min_value -> %s", v)
    return v


def max_value(gameState):
    if terminal_test(gameState):
        log.info("max level: the game is over", stack_info=True)
        return -1
    v = float("-inf")
    for move in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(move)))
    log.debug("max_value -> %s", v)
    return v
