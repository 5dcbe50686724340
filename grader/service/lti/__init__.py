"""LTI 1.3 Advantage, on pylti1p3: students and instructors open the service from
their course in Canvas or Moodle, and the scores that count go back to its gradebook.

* ``platforms``: the LMSs registered with the tool, and the tool's own keys;
* ``adapter``: pylti1p3's request, cookies and launch storage for Starlette;
* ``launch``: who a launch is (a roster's student, the instructor) and where it opens;
* ``ags``: scores posted to line items from a record of what to send, with retries;
* ``nrps``: a course's members brought onto the roster;
* ``web``: the routes (login, launch, JWKS, deep linking, the instructor's LTI page).
"""
