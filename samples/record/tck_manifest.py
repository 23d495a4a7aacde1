"""The bookkeeping of record_tck.py: what a run of the kit left behind, and manifest.json.

Reads tck_plugin.py's log of when each test started and stopped, the kit's JUnit report
(each testcase's outcome, the totals) and the packet times of a pcap; names the .http
file of a test's exchange; lays out manifest.json. Standard library only, no writing.
"""

import hashlib
import json
import pathlib
import re
import struct
import xml.etree.ElementTree as ET


def sanitise(text: str) -> str:
    return re.sub(r'[^A-Za-z0-9._-]+', '-', text).strip('-')


def file_stem(classname: str, name: str) -> str:
    """<module>[.<Class>]__<test>, short enough for a file name, the same on every run."""
    parts = classname.split('.')
    # tests.compatibility.<group>.<module>[.<Class>]: keep the module and the class
    modules = [i for i, part in enumerate(parts) if part.startswith('test_')]
    tail = parts[modules[0]:] if modules else parts[-1:]
    stem = sanitise('.'.join(tail)) + '__' + sanitise(name)
    if len(stem) > 120:
        digest = hashlib.sha1(f'{classname}::{name}'.encode()).hexdigest()[:8]
        stem = stem[:110].rstrip('-._') + '-' + digest
    return stem


def read_events(path: pathlib.Path) -> list[dict]:
    """tck_plugin.py's log: one dict per test, with start and stop wall-clock times."""
    tests, open_ = [], {}
    if not path.exists():
        return tests
    for line in path.read_text().splitlines():
        event = json.loads(line)
        if event['event'] == 'start':
            entry = {key: event[key] for key in ('nodeid', 'classname', 'name')}
            entry['start'] = event['time']
            open_[event['nodeid']] = entry
            tests.append(entry)
        else:
            entry = open_.pop(event['nodeid'], None)
            if entry is not None:
                entry['stop'] = event['time']
    for entry in tests:
        entry.setdefault('stop', float('inf'))
    return tests


def test_at(tests: list[dict], when: float):
    for entry in tests:
        if entry['start'] <= when <= entry['stop']:
            return entry
    return None


def pcap_times(path: pathlib.Path) -> list[float]:
    """The timestamp of every packet of a classic pcap file, in order (frame 1 first)."""
    data = path.read_bytes()
    if len(data) < 24:
        return []
    magic = data[:4]
    if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        endian = '<'
    elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        endian = '>'
    else:
        raise ValueError(f'{path}: not a classic pcap file')
    scale = 1e-9 if magic in (b'\x4d\x3c\xb2\xa1', b'\xa1\xb2\x3c\x4d') else 1e-6
    times, offset = [], 24
    while offset + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack_from(endian + 'IIII', data, offset)
        times.append(sec + frac * scale)
        offset += 16 + incl
    return times


def junit_cases(path: pathlib.Path) -> list[dict]:
    cases = []
    for case in ET.parse(path).getroot().iter('testcase'):
        outcome = 'passed'
        for child in case:
            if child.tag in ('failure', 'error', 'skipped'):
                outcome = {'failure': 'failed'}.get(child.tag, child.tag)
                if child.tag == 'skipped' and child.get('type') == 'pytest.xfail':
                    outcome = 'xfailed'
                break
        cases.append({'classname': case.get('classname'), 'name': case.get('name'), 'outcome': outcome})
    return cases


def junit_summary(path: pathlib.Path) -> dict:
    root = ET.parse(path).getroot()
    suite = root if root.tag == 'testsuite' else root.find('testsuite')
    return {key: int(suite.get(key, 0)) for key in ('tests', 'failures', 'errors', 'skipped')}


def manifest_text(manifest: dict) -> str:
    """Indented JSON with each test on a line of its own (short, and easy to diff)."""
    runs = manifest['runs']
    head = json.dumps({**manifest, 'runs': '@RUNS@'}, indent=1)
    parts = []
    for transport, entry in runs.items():
        fields = [f'  {json.dumps(key)}: {json.dumps(value)}' for key, value in entry.items() if key != 'tests']
        tests = ',\n'.join('   ' + json.dumps(test) for test in entry['tests'])
        fields.append(f'  "tests": [\n{tests}\n  ]')
        parts.append(f' {json.dumps(transport)}: {{\n' + ',\n'.join(fields) + '\n }')
    text = head.replace('"@RUNS@"', '{\n' + ',\n'.join(parts) + '\n }')
    json.loads(text)  # still JSON
    return text + '\n'
