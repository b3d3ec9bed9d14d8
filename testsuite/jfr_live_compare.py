#!/usr/bin/env python3
"""jfr_live_compare.py JDK_JSON OURS: every event and every field the live JFR
parser gave (testsuite/jfr-live-dump's JSON lines, OURS) against what the
JDK's own reader gave for the same file (`jfr print --json --stack-depth
2048`, JDK_JSON). Values must be equal, with these conversions only:
 - the JDK's time stamps (ISO-8601 text) and durations ("PT1.5S") are
   nanoseconds in ours;
 - its booleans are 0 and 1 in ours, its chars (one-character text) their
   code; an unsigned long above 2^63 (the JDK prints it unsigned) is
   negative in ours;
 - a float (the JDK prints the shortest text for its 32 bits) is equal when
   ours, rounded to 32 bits, is the same float;
 - JFR's "none" and "forever" (the long's least and greatest values) are
   kept as they are in ours; the JDK prints them as durations or instants
   at least that far away (or Instant.MIN/MAX);
 - its objects and arrays are flattened to paths ("a.b", "a[2].c");
   startTime, duration and stackTrace are ours' own members; a frame's method
   is its class's name with '.' for '/', a '.', and its name.
The JDK sorts the events by time; ours come in the order they were written:
both are sorted by (type, startTime, the rest) before being paired.
Prints "equal: N events, F fields, S frames" and exits 0, or the first
differences and exits 1.

With --subset (a chunk copied while the JVM wrote it, against the finished
recording): each event of ours must equal one of the JDK's, each used once;
the JDK may have more. A constant the JVM writes only when it ends the
chunk (the class loaders of jdk.ClassLoaderStatistics, say) is null in ours
before then, as for the JDK's own streaming reader: a null of ours may stand
for a value the finished recording gives (they are counted, "later").
Prints "subset: N events, F fields, S frames, L later".
"""
import json
import re
import struct
import sys
from datetime import datetime, timezone

ISO = re.compile(r'^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?(Z|[+-]\d\d:\d\d(?::\d\d)?)$')
DUR = re.compile(r'^PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?)(\d+)(?:\.(\d{1,9}))?S)?$')


def iso_ns(text):
    m = ISO.match(text)
    if not m:
        return None
    y, mo, d, h, mi, s, frac, off = m.groups()
    t = datetime(int(y), int(mo), int(d), int(h), int(mi), int(s or 0), tzinfo=timezone.utc)
    secs = int(t.timestamp())
    if off != 'Z':
        sign = -1 if off[0] == '-' else 1
        parts = [int(p) for p in off[1:].split(':')]
        secs -= sign * (parts[0] * 3600 + parts[1] * 60 + (parts[2] if len(parts) > 2 else 0))
    return secs * 10**9 + int((frac or '').ljust(9, '0') or 0)


def dur_ns(text):
    m = DUR.match(text)
    if not m or text == 'PT':
        return None
    h, mi, neg, s, frac = m.groups()
    ns = (int(h or 0) * 3600 + int(mi or 0) * 60) * 10**9
    sec = int(s or 0) * 10**9 + int((frac or '').ljust(9, '0') or 0)
    return ns - sec if neg else ns + sec


def flatten(value, path, out):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(v, f'{path}.{k}' if path else k, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            flatten(v, f'{path}[{i}]', out)
    else:
        out.append((path, value))


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


def same(kind, ours, jdk):
    if kind == 'N':
        return jdk is None
    if jdk is None:
        return False
    if kind == 'S':
        return isinstance(jdk, str) and ours == jdk
    if kind == 'D':
        if isinstance(jdk, bool) or not isinstance(jdk, (int, float)):
            return False
        return ours == jdk or f32(ours) == ours and f32(jdk) == ours
    # an integer of ours
    if isinstance(jdk, bool):
        return ours == int(jdk)
    if isinstance(jdk, int):
        return ours == jdk or ours < 0 and ours + 2**64 == jdk
    if isinstance(jdk, str) and ours in (-2**63, 2**63 - 1):
        v = dur_ns(jdk)
        if v is not None:
            return abs(v) >= 2**63 - 1 and (v < 0) == (ours < 0)
        return jdk.startswith('-999999999-' if ours < 0 else '+1000000000-')
    if isinstance(jdk, str):
        for conv in (iso_ns, dur_ns):
            v = conv(jdk)
            if v is not None:
                return v == ours
        return len(jdk) == 1 and ord(jdk) == ours
    return False


def jdk_events(doc):
    for e in doc['recording']['events']:
        v = e['values']
        frames = None
        st = v.get('stackTrace')
        if st is not None:
            frames = []
            for f in st['frames']:
                m = f['method']
                cls = (m['type'] or {}).get('name') or ''
                frames.append([cls.replace('/', '.') + '.' + (m['name'] or ''), m['descriptor'] or '',
                               f['lineNumber'], f['type'] or ''])
        fields = []
        for k, x in v.items():
            if k not in ('startTime', 'duration', 'stackTrace'):
                flatten(x, k, fields)
        yield {'type': e['type'], 'startTime': iso_ns(v['startTime']) if 'startTime' in v else 0,
               'duration': dur_ns(v['duration']) if 'duration' in v else 0,
               'truncated': bool(st and st['truncated']), 'frames': frames or [], 'fields': fields}


def key(e):
    return (e['type'], e['startTime'], json.dumps(e['fields'], default=str), json.dumps(e['frames']))


def later(jf, of):
    """JF without what stands, in JDK's fields, where OF has a null that
    the finished recording resolves; and how many such nulls."""
    out, n, i = [], 0, 0
    for p, (kind, _) in of:
        if i < len(jf) and jf[i][0] == p:
            out.append(jf[i])
            i += 1
        elif kind == 'N' and i < len(jf) and jf[i][0].startswith((p + '.', p + '[')):
            while i < len(jf) and jf[i][0].startswith((p + '.', p + '[')):
                i += 1
            out.append((p, None))
            n += 1
    return out + jf[i:], n


def differences(j, o, lenient=False):
    where = f"{o['type']} at {o['startTime']}"
    bad = []
    if lenient:
        fields, n = later(j['fields'], o['fields'])
        j = dict(j, fields=fields)
        o['later'] = n
    for name in ('type', 'startTime', 'duration', 'truncated'):
        if j[name] != o[name]:
            bad.append(f'{where}: {name}: JDK {j[name]!r}, ours {o[name]!r}')
    if j['frames'] != o['frames']:
        bad.append(f"{where}: frames: JDK {j['frames']!r}, ours {o['frames']!r}")
    if [p for p, _ in j['fields']] != [p for p, _ in o['fields']]:
        bad.append(f"{where}: field paths: JDK {[p for p, _ in j['fields']]}, ours {[p for p, _ in o['fields']]}")
    else:
        for (p, jv), (_, (kind, ov)) in zip(j['fields'], o['fields']):
            if not same(kind, ov, jv):
                bad.append(f'{where}: {p}: JDK {jv!r}, ours {kind} {ov!r}')
    return bad


def main():
    subset = sys.argv[1] == '--subset'
    if subset:
        del sys.argv[1]
    with open(sys.argv[1], encoding='utf-8') as f:
        jdk = sorted(jdk_events(json.load(f)), key=key)
    ours, end = [], None
    with open(sys.argv[2], encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            e = json.loads(line)
            if e.get('end'):
                end = e
            else:
                e['fields'] = [(p, [k, v]) for p, k, v in e['fields']]
                ours.append(e)
    ours.sort(key=lambda e: (e['type'], e['startTime'], json.dumps([[p, kv[1]] for p, kv in e['fields']]),
                             json.dumps(e['frames'])))
    bad = []
    if end is None or end['error'] is not None and not subset:
        bad.append(f'the dump did not end cleanly: {end}')
    nfields = sum(len(o['fields']) for o in ours)
    nframes = sum(len(o['frames']) for o in ours)
    if subset:
        unused = list(jdk)
        for o in ours:
            match = next((j for j in unused if j['type'] == o['type'] and j['startTime'] == o['startTime']
                          and not differences(j, o, True)), None)
            if match is None:
                bad.append(f"{o['type']} at {o['startTime']}: no such event from the JDK")
            else:
                unused.remove(match)
    else:
        if len(jdk) != len(ours):
            bad.append(f'{len(jdk)} events from the JDK, {len(ours)} from ours')
        for j, o in zip(jdk, ours):
            bad += differences(j, o)
            if len(bad) > 20:
                break
    if bad:
        print('\n'.join(bad[:20]))
        return 1
    if subset:
        print(f"subset: {len(ours)} events, {nfields} fields, {nframes} frames, "
              f"{sum(o.get('later', 0) for o in ours)} later")
    else:
        print(f'equal: {len(ours)} events, {nfields} fields, {nframes} frames')
    return 0


if __name__ == '__main__':
    sys.exit(main())
