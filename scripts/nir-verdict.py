#!/usr/bin/env python3
"""The verdict on NIR's rules as Markdown (docs/NIR.md's lists), from Lathe's own reports.

  ./lathe rules import-nir MESA/src/compiler/nir/nir_opt_algebraic.py -o nir-rules
  ./lathe rules check nir-rules --timeout-ms 4000 --format json > verdict.json
  scripts/nir-verdict.py verdict.json [--newer NEWER-IMPORT-DIR] > verdict.md

--newer names the import of a newer Mesa's file (`lathe rules import-nir` on it): each wrong rule
is then looked up there by its Lathe text, and said to be still there (and marked XFAIL there,
when the newer file marks it), or gone (changed or removed).

Classes, as the rows are grouped:
  * wrong in NIR (the counterexample stands under NIR's semantics, `--nir`):
      - a lowering approximate by design: a float value within 1% of the pattern's, from a rule
        gated on an option that asks for a lowering (option(lower_...), option(force_...), or an
        rtz variant), as NIR applies these only where the hardware lacks the exact op;
      - a value; a value for a NaN or infinite input; an infinity; a NaN against a number; the
        sign of a zero;
  * differs from Lathe's semantics (the reason as the check says it);
  * reassociation rules (~~>) wrong over the real numbers;
  * unknown: the prover's budget ran out, with the sizes it ran out at.
"""
import argparse, collections, glob, json, math, os, re

p = argparse.ArgumentParser()
p.add_argument('report')
p.add_argument('--newer', default=None)
args = p.parse_args()
rules = json.load(open(args.report, encoding='utf-8'))['rules']

newer = None
if args.newer:
    newer = {}
    for f in glob.glob(os.path.join(args.newer, '*.rules')):
        for line in open(f, encoding='utf-8'):
            m = re.match(r'nir_\w+: (.*?;)  # (\S+?:\d+)(.*)$', line)
            if m:
                newer.setdefault(m.group(1), []).append((m.group(2), 'XFAIL' in m.group(3)))


def body(r):
    """The rule's text without its name."""
    return r['text'].split(': ', 1)[1] if ': ' in r['text'] else r['text']


def source(r):
    return (r['comment'] or '').split(';')[0].split(',')[0]


def newer_state(r):
    if newer is None:
        return None
    hits = newer.get(body(r))
    if not hits:
        return 'gone'
    where, xfail = hits[0]
    return ('XFAIL at ' if xfail else 'kept at ') + where.split(':')[-1]


def short(why):
    """A difference of semantics in a few words (docs/NIR.md explains each)."""
    out = []
    for part in why.split('; '):
        if part.startswith("a NaN's bits"):
            out.append("a NaN's bits (NIR keeps none)")
        elif part.startswith('NIR has no '):
            out.append(part.split(':')[0] + ' (NIR has the op at fewer sizes)')
        elif part.startswith('the pattern reads '):
            out.append(part[len('the pattern reads '):])
        elif part.startswith("NIR's ") and ' adds its products in pairs' in part:
            out.append(part.split(' adds')[0] + ' adds in pairs')
        else:
            out.append(part)
    return '; '.join(dict.fromkeys(out))


def cell(s, n=150):
    s = s.replace('|', '\\|').replace('\n', ' ')
    return s if len(s) <= n else s[:n - 1] + '…'


FLOAT = re.compile(r"NIR's pattern gives (\S+) \((0x[0-9a-f]+)\), its replacement (\S+) \((0x[0-9a-f]+)\)")


def approximate(r):
    gate = r['text'].split(' if ', 1)[1] if ' if ' in r['text'] else ''
    if not re.search(r'option\((lower_|force_)|rtz', gate):
        return False
    m = FLOAT.search(r['nirDetail'] or '')
    if not m:
        return False
    try:
        x, y = float(m.group(1)), float(m.group(3))
    except ValueError:
        return False
    if not (math.isfinite(x) and math.isfinite(y)) or x == y == 0:
        return False
    return abs(x - y) <= 0.01 * abs(x) or max(abs(x), abs(y)) < 1e-300


groups = collections.OrderedDict((k, []) for k in [
    'value', 'approximate', 'nan-input', 'infinity', 'nan', 'zero', 'differs', 'reals', 'unknown'])
for r in rules:
    wrong = r['sampling'] == 'unsound' or r['proof'] == 'refuted'
    if r['nir'] == 'wrong-in-nir':
        d = r['nirDetail']
        inputs = d.split(": NIR's pattern gives", 1)[0]
        k = ('zero' if d.startswith('the sign of a zero') else 'approximate' if approximate(r)
             else 'nan' if d.startswith('a NaN') else 'infinity' if d.startswith('an infinity')
             else 'nan-input' if re.search(r'= -?(nan|inf) ', inputs) else 'value')
        groups[k].append(r)
    elif r['nir'] == 'differs-from-lathe':
        groups['differs'].append(r)
    elif wrong:
        groups['reals'].append(r)
    elif r['proof'] == 'unknown':
        groups['unknown'].append(r)

TITLES = {
    'value': 'Wrong in NIR: a value',
    'approximate': 'Wrong in NIR, a lowering approximate by design',
    'nan-input': 'Wrong in NIR: a value, for a NaN or infinite input (where the shader keeps them)',
    'infinity': 'Wrong in NIR: an infinity',
    'nan': 'Wrong in NIR: a NaN against a number (where the shader keeps NaNs)',
    'zero': 'Wrong in NIR: the sign of a zero (where the shader keeps zero signs)',
    'differs': "Wrong only under Lathe's semantics",
    'reals': 'Reassociation rules (~~>) wrong over the real numbers',
    'unknown': "Unknown: the prover's budget ran out",
}

for k, rs in groups.items():
    if not rs:
        continue
    print('#### %s (%d)\n' % (TITLES[k], len(rs)))
    head = ['line', 'rule', 'counterexample' if k not in ('differs', 'unknown') else
            ('why' if k == 'differs' else 'sizes not decided')]
    if newer is not None and k != 'unknown':
        head.append('newer Mesa')
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for r in rs:
        rule = '`' + cell(body(r), 110).replace('`', "'") + '`'
        if k == 'differs':
            what = short(r['nirDetail'])
        elif k == 'unknown':
            m = re.search(r'is not decided(?: over the real numbers)? at ([0-9, ]+) bits?', r['proofMessage'] or '')
            what = m.group(1) if m else cell(r['proofMessage'] or '', 80)
        elif k == 'reals':
            msg = r['samplingMessage'] or r['proofMessage'] or ''
            what = msg.split(' bits: ', 1)[-1]
        else:
            what = r['nirDetail'].split(' (', 1)[1].rsplit(')', 1)[0] if ' (' in r['nirDetail'] else r['nirDetail']
        row = [source(r).replace('nir_opt_algebraic.py:', ''), rule, cell(what, 200)]
        if newer is not None and k != 'unknown':
            row.append(newer_state(r))
        print('| ' + ' | '.join(row) + ' |')
    print()
