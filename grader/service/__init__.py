"""The web service: students hand in through their own link, a pool grades.

``app.build`` makes the Starlette app of a :class:`~grader.service.core.Service`
(its database, file store and grading pool); ``server.serve`` runs it under
uvicorn for ``minimax-grader serve``.
"""
