"""A pytest plugin for record_tck.py: says when each test of the kit starts and stops.

Loaded into the kit's own pytest run with `-p tck_plugin` (record_tck.py puts a copy of
this file on PYTHONPATH). For every test it appends two JSON lines to the file named by
the environment variable A2ALINT_TCK_EVENTS (nothing happens when it is unset):

    {"event": "start", "nodeid": ..., "classname": ..., "name": ..., "time": ..., "monotonic": ...}
    {"event": "stop",  "nodeid": ..., "classname": ..., "name": ..., "time": ..., "monotonic": ...}

`start` is written before the test's setup (pytest_runtest_logstart), `stop` after its
teardown (pytest_runtest_logfinish), so fixtures count as part of the test, as they do in
the JUnit report. `time` is the wall clock (time.time(), which tcpdump's packet times and
the recording proxy share), `monotonic` time.monotonic(). `classname` and `name` are
what pytest's JUnit XML writer puts into the <testcase> element for that test (without a
junit_suite/--junitprefix prefix, which the kit does not set).

The plugin changes nothing in the run: no option, no fixture, no report.
"""

import json
import os
import threading
import time

try:
    from _pytest.junitxml import mangle_test_address
except ImportError:  # a pytest without it: the nodeid alone still identifies the test
    mangle_test_address = None

_lock = threading.Lock()


def _junit_names(nodeid: str) -> tuple[str, str]:
    if mangle_test_address is None:
        return '', nodeid
    names = mangle_test_address(nodeid)
    return '.'.join(names[:-1]), names[-1]


def _write(event: str, nodeid: str) -> None:
    path = os.environ.get('A2ALINT_TCK_EVENTS')
    if not path:
        return
    classname, name = _junit_names(nodeid)
    line = json.dumps({
        'event': event,
        'nodeid': nodeid,
        'classname': classname,
        'name': name,
        'time': time.time(),
        'monotonic': time.monotonic(),
    })
    with _lock, open(path, 'a', encoding='utf-8') as out:
        out.write(line + '\n')


def pytest_runtest_logstart(nodeid, location):
    _write('start', nodeid)


def pytest_runtest_logfinish(nodeid, location):
    _write('stop', nodeid)
