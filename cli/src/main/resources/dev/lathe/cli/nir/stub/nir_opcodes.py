"""Lathe's stand-in for Mesa's nir_opcodes module (not Mesa's code).

nir_opt_algebraic.py asks nir_opcodes only about type names ('float', 'uint32' ...): which bit
sizes a type has. These functions answer as NIR's type system does (a sized type has its one
size; bool has 1, 8, 16 and 32 bits; float 16, 32 and 64; the integers 1 to 64). Anything
else is an error that names itself, so that a newer file's needs are said, not guessed.
"""
import re

_TYPE = re.compile(r'^(?P<type>int|uint|float|bool)(?P<bits>\d+)?$')


def _split(type_):
    m = _TYPE.match(type_)
    if m is None:
        raise ValueError('not a NIR type name: %r' % (type_,))
    return m.group('type'), m.group('bits')


def type_has_size(type_):
    return _split(type_)[1] is not None


def type_size(type_):
    bits = _split(type_)[1]
    if bits is None:
        raise ValueError('NIR type %r has no bit size' % (type_,))
    return int(bits)


def type_base_type(type_):
    return _split(type_)[0]


def type_sizes(type_):
    base, bits = _split(type_)
    if bits is not None:
        return [int(bits)]
    if base == 'bool':
        return [1, 8, 16, 32]
    if base == 'float':
        return [16, 32, 64]
    return [1, 8, 16, 32, 64]


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    raise AttributeError("Lathe's stand-in for nir_opcodes has no %r (the rule file asks for more of "
                         "Mesa's op table than the importer knows)" % name)
