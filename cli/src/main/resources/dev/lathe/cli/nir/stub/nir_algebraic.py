"""Lathe's stand-in for Mesa's nir_algebraic module (not Mesa's code).

`lathe rules import-nir` evaluates a nir_opt_algebraic.py with this module first on sys.path.
It only records what the file hands over, so the rule lists can be read without Mesa's
parser, automaton generator or templates:

  nir_algebraic.ignore_exact(op, *srcs)   -> IgnoreExact (not a tuple, as Mesa's is not)
  nir_algebraic.AlgebraicPass(name, transforms, ...).render() -> ''

Every AlgebraicPass is appended to `passes` as (name, list(transforms)). Anything else the
file asks of the module (a newer Mesa's test marks, say) is an Unknown: a placeholder that
the file may pass around, call or read attributes of. A rule that holds one is refused by
the importer with the name it was asked by; the rest of the file is read as usual.
"""

passes = []


class IgnoreExact(object):
    """Stands in for the SearchExpression ignore_exact() returns."""

    def __init__(self, expr):
        self.opcode = expr[0]
        self.sources = tuple(expr[1:])
        self.ignore_exact = True

    def as_tuple(self):
        return (self.opcode,) + self.sources

    def __repr__(self):
        return 'ignore_exact' + repr(self.as_tuple())

    def __eq__(self, other):
        return isinstance(other, IgnoreExact) and self.as_tuple() == other.as_tuple()

    def __hash__(self):
        return hash(('ignore_exact',) + self.as_tuple())


SearchExpression = IgnoreExact


def ignore_exact(*expr):
    if len(expr) == 1 and isinstance(expr[0], IgnoreExact):
        return expr[0]
    return IgnoreExact(expr)


class Unknown(object):
    """A part of nir_algebraic this stand-in does not know, by the name the file used."""

    def __init__(self, name):
        self.unknown_name = name

    def __getattr__(self, attr):
        if attr.startswith('__'):
            raise AttributeError(attr)
        return Unknown(self.unknown_name + '.' + attr)

    def __call__(self, *args, **kwargs):
        return Unknown(self.unknown_name + '(...)')

    def __repr__(self):
        return 'nir_algebraic.' + self.unknown_name


class AlgebraicPass(object):
    def __init__(self, pass_name, transforms, *args, **kwargs):
        self.pass_name = pass_name
        self.xforms = list(transforms)
        passes.append((pass_name, self.xforms))

    def render(self):
        return ''


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    return Unknown(name)
