"""Stub of Mesa's nir_algebraic module (NOT Mesa's code).

It only records what nir_opt_algebraic.py hands to it, so the rule lists can be
dumped without Mesa's parser, automaton generator or templates.

Call surface mimicked (Mesa 25.0.7 nir_opt_algebraic.py uses only these two):
  nir_algebraic.ignore_exact(op, *srcs)   -> IgnoreExact (not a tuple, like Mesa's SearchExpression)
  nir_algebraic.AlgebraicPass(name, transforms, params=[]).render() -> ''
Every AlgebraicPass call is appended to `passes` as (name, list(transforms), params).
"""

passes = []


class IgnoreExact(object):
    """Stands in for Mesa's SearchExpression returned by ignore_exact()."""

    def __init__(self, expr):
        self.opcode = expr[0]
        self.sources = tuple(expr[1:])
        self.ignore_exact = True
        self.line = getattr(expr, 'line', None)

    def as_tuple(self):
        return (self.opcode,) + self.sources

    def __repr__(self):
        return 'ignore_exact' + repr(self.as_tuple())

    def __eq__(self, other):
        return isinstance(other, IgnoreExact) and self.as_tuple() == other.as_tuple()

    def __hash__(self):
        return hash(('ignore_exact',) + self.as_tuple())


# Mesa's name for the class, in case a rule file refers to it.
SearchExpression = IgnoreExact


def ignore_exact(*expr):
    if len(expr) == 1 and isinstance(expr[0], IgnoreExact):
        return expr[0]
    return IgnoreExact(expr)


class AlgebraicPass(object):
    def __init__(self, pass_name, transforms, params=[]):
        self.pass_name = pass_name
        self.xforms = list(transforms)
        self.params = params
        passes.append((pass_name, self.xforms, params))

    def render(self):
        return ''


def __getattr__(name):
    # Make any use of a part of nir_algebraic this stub lacks fail loudly.
    raise AttributeError('nir_algebraic stub has no attribute %r' % name)
