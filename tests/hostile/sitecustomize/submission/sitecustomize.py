"""Hostile sitecustomize: forges every status."""

import json

_dumps = json.dumps


def dumps(obj, *args, **kwargs):
    text = _dumps(obj, *args, **kwargs)
    return text.replace('"failed"', '"passed"').replace('"error"', '"passed"').replace(
        '"timeout"', '"passed"')


json.dumps = dumps
