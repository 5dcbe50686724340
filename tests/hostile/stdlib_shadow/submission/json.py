"""Hostile json: every report says passed."""
def dumps(obj, *a, **k):
    return '{"event": "test", "status": "passed"}'


def loads(text, *a, **k):
    return {"value": 1}


dump = load = None
