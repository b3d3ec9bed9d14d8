#!/usr/bin/env python3
"""include-cycles.py DIR...: the headers of each DIR that include themselves
through others ("a.h" -> "b.h" -> "a.h"), by their #include "..." lines
(a header of the same DIR only; <...> ones are the system's).

Why: a module's header says its contract; a circle of them means no module
of the circle can be read, built or tested without the others (issue 12:
"no circle of includes in agent/"). Include guards hide a circle from the
compiler, so nothing else finds it.

Prints one line for each group of headers that reach one another, with one
circle through them ("DIR: a.h -> b.h -> a.h"), and exits 1; or "no circle:
N headers in D directories" and exits 0. An unreadable DIR or header is
said, exit 2.
"""
import os
import re
import sys
from collections import deque

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.M)


def headers_of(d):
    names = sorted(n for n in os.listdir(d) if n.endswith('.h'))
    graph = {}
    for n in names:
        with open(os.path.join(d, n), encoding='utf-8', errors='replace') as f:
            graph[n] = sorted({h for h in INCLUDE.findall(f.read()) if h in names})
    return graph


def groups(graph):
    """The strongly connected groups with a circle (Tarjan's, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    n = stack.pop()
                    on.discard(n)
                    group.append(n)
                    if n == node:
                        break
                if len(group) > 1 or node in graph[node]:
                    out.append(sorted(group))
    return sorted(out)


def circle_through(graph, group):
    """The shortest circle from the group's first header back to it."""
    start, members = group[0], set(group)
    came = {}
    todo = deque([start])
    while todo:
        node = todo.popleft()
        for nxt in graph[node]:
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return [start] + path[::-1][1:] + [start]
            if nxt in members and nxt not in came:
                came[nxt] = node
                todo.append(nxt)
    return group


def main(argv):
    if len(argv) < 2:
        print('usage: include-cycles.py DIR...', file=sys.stderr)
        return 2
    total, bad = 0, []
    for d in argv[1:]:
        try:
            graph = headers_of(d)
        except OSError as e:
            print(f'include-cycles.py: {e.filename}: {e.strerror}', file=sys.stderr)
            return 2
        total += len(graph)
        bad += [f'{d}: ' + ' -> '.join(circle_through(graph, g)) for g in groups(graph)]
    for line in bad:
        print(line)
    if bad:
        return 1
    print(f'no circle: {total} headers in {len(argv) - 1} directories')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
