#!/usr/bin/env python3
"""Evaluate Mesa's nir_opt_algebraic.py with a stub nir_algebraic and dump its rules.

Usage: nir_dump.py [--mesa SRC_COMPILER_NIR_DIR] [--out TSV] [--stats JSON]

* nir_algebraic is the stub in nirstub/ next to this script (Mesa's own nir_algebraic.py is never
  imported: the stub directory is first on sys.path and the module file is checked).
* nir_opcodes is Mesa's real nir_opcodes.py (pure Python data; the rule file imports
  type_sizes from it).
* Line numbers: the file's AST is rewritten before it is compiled (same filename, same
  line numbers) so that
    - every tuple display (Load context) evaluates to LTuple, a tuple subclass that
      remembers the line where the display starts (for a rule: the line of its opening
      parenthesis, also inside loops, comprehensions and helper functions);
    - a rule that arrives as a plain tuple (built by code, e.g. add_fabs_fneg's
      to_tuple) gets the line of the list element / starred element / append / extend /
      += argument that put it in the list, the outermost such placement winning (so
      add_fabs_fneg's rules get the line of the `*add_fabs_fneg(` call, not line 145).
  The TSV's line is the rule tuple's own line when it has one, else that fallback.
Columns: pass, line, search, replace, condition (empty when the rule has none), extra
(repr of elements past the third, empty when none).
Value syntax: Python repr; ops and variables are quoted strings exactly as written in
the file; an ignore_exact() search sub-expression is written ignore_exact('op', ...);
float NaN/inf as nan/inf/-inf (Python's float repr).
"""
import argparse, ast, collections, json, os, re, sys, types

p = argparse.ArgumentParser()
p.add_argument('--mesa', required=True, help="Mesa's src/compiler/nir directory")
p.add_argument('--stub', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'nirstub'))
p.add_argument('--out', default='nir-rules.tsv')
p.add_argument('--stats', default=None)
args = p.parse_args()

SRC = os.path.join(args.mesa, 'nir_opt_algebraic.py')

# --- tracking helpers -------------------------------------------------------------
class LTuple(tuple):
    pass

def _T(line, t):
    r = LTuple(t)
    r.line = line
    r.fallback = False
    return r

def _E(line, v):
    """A value placed into a list at `line`: tag plain tuples with that line."""
    if type(v) is LTuple and v.fallback:
        v.line = line          # outermost placement wins for code-built tuples
        return v
    if type(v) is tuple:
        r = LTuple(v)
        r.line = line
        r.fallback = True
        return r
    return v

def _S(line, it):
    """An iterable spliced into a list at `line` (*x, extend(x), += x)."""
    if isinstance(it, list):
        return [_E(line, v) for v in it]
    if isinstance(it, types.GeneratorType):
        return (_E(line, v) for v in it)
    return it

class Rewriter(ast.NodeTransformer):
    def _call(self, name, line, node):
        return ast.copy_location(ast.Call(func=ast.Name(id=name, ctx=ast.Load()),
                                          args=[ast.Constant(line), node], keywords=[]), node)

    def visit_Tuple(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load):
            return self._call('__nirdump_T', node.lineno, node)
        return node

    def visit_List(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load):
            new = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    new.append(ast.copy_location(
                        ast.Starred(value=self._call('__nirdump_S', e.lineno, e.value), ctx=ast.Load()), e))
                else:
                    new.append(self._call('__nirdump_E', e.lineno, e))
            node.elts = new
        return node

    def visit_ListComp(self, node):
        self.generic_visit(node)
        node.elt = self._call('__nirdump_E', node.elt.lineno, node.elt)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in ('append', 'extend', 'insert') and node.args:
            w = '__nirdump_S' if f.attr == 'extend' else '__nirdump_E'
            node.args[-1] = self._call(w, node.lineno, node.args[-1])
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Add):
            node.value = self._call('__nirdump_S', node.lineno, node.value)
        return node

# --- evaluate ---------------------------------------------------------------------
sys.path.insert(0, args.mesa)      # for nir_opcodes only
sys.path.insert(0, args.stub)      # stub nir_algebraic wins over Mesa's
import nir_algebraic
assert os.path.dirname(os.path.abspath(nir_algebraic.__file__)) == os.path.abspath(args.stub), nir_algebraic.__file__
import nir_opcodes
assert os.path.dirname(os.path.abspath(nir_opcodes.__file__)) == os.path.abspath(args.mesa)

source = open(SRC, encoding='utf-8').read()
tree = ast.fix_missing_locations(Rewriter().visit(ast.parse(source, SRC)))
code = compile(tree, SRC, 'exec')
g = {'__name__': '__main__', '__file__': SRC,
     '__nirdump_T': _T, '__nirdump_E': _E, '__nirdump_S': _S}
saved_argv = sys.argv
sys.argv = [SRC, '--out', os.devnull]
try:
    exec(code, g)
finally:
    sys.argv = saved_argv

# --- output -----------------------------------------------------------------------
def r(v):
    if isinstance(v, nir_algebraic.IgnoreExact):
        return 'ignore_exact(' + ', '.join(r(x) for x in v.as_tuple()) + ')'
    if isinstance(v, tuple):
        return '(' + ', '.join(r(x) for x in v) + (',)' if len(v) == 1 else ')')
    if isinstance(v, bytes):
        v = v.decode('utf-8')
    if isinstance(v, (str, bool, int, float)):
        return repr(v)
    raise TypeError('unexpected value %r (%s)' % (v, type(v)))

def clean(s):
    return s.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')

_opcode_re = re.compile(r"(?P<inexact>~)?(?P<exact>!)?(?P<opcode>\w+)(?:@(?P<bits>\d+))?"
                        r"(?P<cond>\([^\)]+\))?(?P<swizzle_y>\.y)?$")
_var_re = re.compile(r"(?P<const>#)?(?P<name>\w+)(?:@(?P<type>int|uint|bool|float)?(?P<bits>\d+)?)?"
                     r"(?P<cond>\([^\)]+\))?(?P<swiz>\.[xyzwabcdefghijklmnop]+)?$")

stats = {'ops': collections.Counter(), 'ops_search': collections.Counter(),
         'ops_replace': collections.Counter(), 'expr_conds': collections.Counter(),
         'var_conds': collections.Counter(), 'option_conds': collections.Counter(),
         'bad': []}

def walk(v, side):
    if isinstance(v, nir_algebraic.IgnoreExact):
        v = v.as_tuple()
    if isinstance(v, tuple):
        m = _opcode_re.match(v[0])
        if not m:
            stats['bad'].append(('op', v[0])); return
        op = m.group('opcode')
        stats['ops'][op] += 1
        stats['ops_' + side][op] += 1
        if m.group('cond'):
            for c in m.group('cond')[1:-1].split(','):
                stats['expr_conds'][c] += 1
        for s in v[1:]:
            walk(s, side)
    elif isinstance(v, str):
        m = _var_re.match(v)
        if not m:
            stats['bad'].append(('var', v)); return
        if m.group('cond'):
            for c in m.group('cond')[1:-1].split(','):
                stats['var_conds'][c] += 1

counts = collections.OrderedDict()
nofallback = 0
nfallback = 0
with open(args.out, 'w', encoding='utf-8') as f:
    f.write('pass\tline\tsearch\treplace\tcondition\textra\n')
    for name, xforms, params in nir_algebraic.passes:
        counts[name] = len(xforms)
        for x in xforms:
            if not isinstance(x, tuple) or len(x) < 2:
                raise SystemExit('unexpected transform in %s: %r' % (name, x))
            line = getattr(x, 'line', '')
            nfallback += bool(getattr(x, 'fallback', False))
            cond = x[2] if len(x) > 2 else ''
            extra = r(tuple(x[3:])) if len(x) > 3 else ''
            if not isinstance(cond, str):
                cond = r(cond)
            f.write('\t'.join([name, str(line), clean(r(x[0])), clean(r(x[1])), clean(cond), clean(extra)]) + '\n')
            walk(x[0], 'search'); walk(x[1], 'replace')
            stats['option_conds'][cond if cond else 'true'] += 1
            if line == '':
                nofallback += 1

for name, n in counts.items():
    print('%-45s %5d' % (name, n))
print('%-45s %5d' % ('total', sum(counts.values())))
print('rules whose line is a placement line (code-built tuples):', nfallback)
if nofallback:
    print('rules without a line:', nofallback)
if stats['bad']:
    print('unparsed strings:', stats['bad'][:20])
if args.stats:
    json.dump({k: (v.most_common() if isinstance(v, collections.Counter) else v)
               for k, v in stats.items()}, open(args.stats, 'w'), indent=1)
