# A small rule file in the form of Mesa's nir_opt_algebraic.py, written for Lathe's importer
# tests (CliImportNirTest): loops, a helper function, option strings, flags, swizzles,
# ignore_exact, bit sizes, a test mark, and rules the importer must refuse. Line numbers are
# asserted by the tests: add new rules at the end of a list.
import argparse
import itertools
import nir_algebraic; from nir_algebraic import TestStatus  # as a newer Mesa imports it
from nir_opcodes import type_sizes

a = 'a'
b = 'b'
c = 'c'
ignore_exact = nir_algebraic.ignore_exact


def doubled(x):
    return ('fadd', x, x)


optimizations = [
   (('fmul', a, 1.0), a),
   (('fadd(nsz)', a, 0.0), a),
   (('~fadd', ('fmul', a, b), ('fmul', a, c)), ('fmul', a, ('fadd', b, c))),
   (('fsat', ('fsat', a)), ('fsat', a), '!options->lower_fsat'),
   (('fmul', a, 2.0), doubled(a)),
   (('ine', ignore_exact('iand', a, 1), 0), ('ieq', ('iand', a, 1), 1)),
   (('fdot2', ('vec2', a, 0.0), b), ('fmul', a, 'b.x')),
   (('iadd@64', a, 0), a),
   (('ishl', 'a@64', -32), a),
   (('ubitfield_extract', 'a@32', 31, 2), 0),
   (('bcsel', ('flt', 0.0, 'a@32'), 'b@32', 'c@32'), ('fcsel_gt', a, b, c)),
   (('fcos_amd', a), a),
   (('imul', a, 1), a, 'true', TestStatus.XFAIL),
   (('iadd', a, b), nir_algebraic.NewConstruct(a)),
   (('iadd', a, 0), a),
   (('fmul', a, 1.0), a),
]

for op in ['fmin', 'fmax']:
   optimizations.append(((op, a, a), a))

for s in type_sizes('uint'):
   if s >= 8:
      optimizations += [(('iand', 'a@{}'.format(s), 0), 0)]

late_optimizations = [
   (('fneg', ('fneg', a)), a),
   (('fabs', ('fabs', a)), ('fabs', a), 'options->lower_fsat || options->lower_fabs'),
]

parser = argparse.ArgumentParser()
parser.add_argument('--out', required=True)
args = parser.parse_args()

with open(args.out, "w", encoding='utf-8') as f:
    f.write(nir_algebraic.AlgebraicPass("nir_opt_algebraic", optimizations).render())
    # a newer Mesa's keyword arguments
    f.write(nir_algebraic.AlgebraicPass("nir_opt_algebraic_late", late_optimizations, build_tests=False).render())
