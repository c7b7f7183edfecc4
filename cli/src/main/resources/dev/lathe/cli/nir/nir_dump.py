#!/usr/bin/env python3
"""Evaluate a Mesa nir_opt_algebraic.py with Lathe's stand-in nir_algebraic and dump its rules.

Run by `lathe rules import-nir` (the Java side translates the rows): 
  nir_dump.py --file PATH/nir_opt_algebraic.py --stub STUB_DIR --out TSV

* nir_algebraic and nir_opcodes are the stand-ins in STUB_DIR (first on sys.path; Mesa's own
  modules are never imported, and the module files are checked).
* Line numbers: the file's AST is rewritten before it is compiled (same filename, same line
  numbers) so that
    - every tuple display evaluates to LTuple, a tuple subclass that remembers the line where
      the display starts (for a rule: its opening parenthesis, also inside loops,
      comprehensions and helper functions);
    - a rule that arrives as a plain tuple (built by code, e.g. a helper's to_tuple) gets the
      line of the list element / starred element / append / extend / += argument that put it
      in the list, the outermost placement winning.
* A rule the dumper cannot write (a value of a kind it does not know, a part of nir_algebraic
  the stand-in lacks) is a row with its problem, never a failure of the whole file.
Columns: pass, line, search, replace, condition (empty when none), extra (repr of the elements
past the third, empty when none), problem (empty when the row is a rule).
Value syntax: Python's repr; ops and variables are the strings as written in the file; an
ignore_exact() search sub-expression is ignore_exact('op', ...); floats as Python writes them
(nan, inf, -inf).
Exit status: 0, or 3 with one line on stderr when the file does not evaluate.
"""
import argparse, ast, os, sys, traceback, types

p = argparse.ArgumentParser()
p.add_argument('--file', required=True, help="the nir_opt_algebraic.py to read")
p.add_argument('--stub', required=True, help="the directory of the stand-in modules")
p.add_argument('--out', required=True)
args = p.parse_args()

SRC = os.path.abspath(args.file)

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
sys.path.insert(0, os.path.dirname(SRC))   # modules of its own the file may import (last)
sys.path.insert(0, args.stub)              # the stand-ins win over Mesa's modules
import nir_algebraic
import nir_opcodes
for m in (nir_algebraic, nir_opcodes):
    assert os.path.dirname(os.path.abspath(m.__file__)) == os.path.abspath(args.stub), m.__file__


def fail(what):
    sys.stderr.write(what + '\n')
    sys.exit(3)


def where(exc):
    """The last line of the rule file in the exception's traceback."""
    line = getattr(exc, 'lineno', None) if isinstance(exc, SyntaxError) else None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if os.path.abspath(frame.f_code.co_filename) == SRC:
            line = lineno
    return ':%d' % line if line else ''


try:
    source = open(SRC, encoding='utf-8').read()
except (OSError, UnicodeDecodeError) as e:
    fail('cannot read %s: %s' % (SRC, e))
try:
    tree = ast.fix_missing_locations(Rewriter().visit(ast.parse(source, SRC)))
    code = compile(tree, SRC, 'exec')
except SyntaxError as e:
    fail('%s:%s: not Python: %s' % (SRC, e.lineno, e.msg))
g = {'__name__': '__main__', '__file__': SRC,
     '__nirdump_T': _T, '__nirdump_E': _E, '__nirdump_S': _S}
out_dir = os.path.dirname(os.path.abspath(args.out))
sys.argv = [SRC, '--out', os.path.join(out_dir, 'nir_opt_algebraic.c')]
try:
    exec(code, g)
except SystemExit as e:
    if e.code not in (None, 0):
        fail('%s: the file exits with %r while it is evaluated' % (SRC, e.code))
except BaseException as e:
    fail('%s%s: the file does not evaluate: %s: %s' % (SRC, where(e), type(e).__name__, e))
if not nir_algebraic.passes:
    fail('%s: the file evaluates, but makes no nir_algebraic.AlgebraicPass: not a rule file' % SRC)

# --- output -----------------------------------------------------------------------
class Unwritable(Exception):
    pass


def r(v):
    if isinstance(v, nir_algebraic.IgnoreExact):
        return 'ignore_exact(' + ', '.join(r(x) for x in v.as_tuple()) + ')'
    if isinstance(v, nir_algebraic.Unknown):
        raise Unwritable('it uses %r, which the importer does not know' % (v,))
    if isinstance(v, tuple):
        return '(' + ', '.join(r(x) for x in v) + (',)' if len(v) == 1 else ')')
    if isinstance(v, bytes):
        v = v.decode('utf-8')
    if isinstance(v, (str, bool, int, float)):
        return repr(v)
    raise Unwritable('it holds a value of Python type %s (%r), which no rule element is'
                     % (type(v).__name__, v))


def clean(s):
    return s.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')


with open(args.out, 'w', encoding='utf-8') as f:
    f.write('pass\tline\tsearch\treplace\tcondition\textra\tproblem\n')
    for name, xforms in nir_algebraic.passes:
        for x in xforms:
            line = str(getattr(x, 'line', ''))
            row = [str(name), line, '', '', '', '', '']
            try:
                if not isinstance(x, tuple) or len(x) < 2:
                    raise Unwritable('not a (search, replace[, condition]) tuple: %r' % (x,))
                row[2] = r(x[0])
                row[3] = r(x[1])
                if len(x) > 2:
                    row[4] = x[2] if isinstance(x[2], str) else r(x[2])
                if len(x) > 3:
                    # past the condition: a newer Mesa's test marks (TestStatus.XFAIL ...) by name
                    row[5] = ', '.join(repr(e) if isinstance(e, nir_algebraic.Unknown) else r(e)
                                       for e in x[3:])
            except Unwritable as e:
                row[6] = str(e)
            except Exception as e:
                row[6] = 'it cannot be read: %s: %s' % (type(e).__name__, e)
            f.write('\t'.join(clean(c) for c in row) + '\n')
