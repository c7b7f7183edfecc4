// The Lathe rule language. See rules/README.md for the reference.
//
//   pass algebraic;
//   mul_one:  fmul(a, 1.0) => a;
//   add_zero: a + 0.0 ~=> a;                       # inexact: may change -0.0
//   pow2_mul: imul(a, #c) => ishl(a, find_lsb(c)) if is_power_of_two(c);
//   once:     fadd(fmul(a, b)@once, c) => ffma(a, b, c);
//   nsz_add:  fadd[nsz](a, 0.0) => a;              # only where the fadd may ignore zero signs
//   dot_one:  fdot2(a, 1.0) => fadd(a.x, a.y);     # a swizzle reads components of a vector
grammar Rules;

ruleFile  : passDecl? ruleDecl* EOF ;
// `pass lower if option(lower_fsat);`: every rule of the file is gated on the options
// `pass lower_fdiv approximate(2 ulp);`: a lowering set approximate by design, within that bound
passDecl  : 'pass' name=IDENT approximation? conditions? ';' ;
// The name is optional: an unnamed rule is called line_N after the line it starts on.
// => exact, ~=> inexact, ~~> reassociation (an identity over the real numbers)
ruleDecl  : (name=IDENT ':')? pattern=expr arrow=(ARROW | INEXACT_ARROW | REASSOC_ARROW) replacement=expr conditions? ';' ;
conditions: 'if' condition (',' condition)* ;
// A comma is `and`. Gates (option(NAME), stage(NAME), float_controls(NAME)) combine with
// `!`, `&&`, `||` and parentheses; a condition on values stands alone or under `&&`.
condition
    : neg='!' condition                             # notCondition
    | condition '&&' condition                      # andCondition
    | condition '||' condition                      # orCondition
    | '(' condition ')'                             # parenCondition
    | name=IDENT '(' expr (',' expr)* ')'           # atomCondition
    ;

// Alternatives are in precedence order, tightest first (as in C, but & ^ | bind tighter
// than comparisons, so `a & 1 == 0` needs no parentheses).
expr
    : expr annotation                               # annotated
    | expr '.' swz=IDENT                            # swizzled
    | name=IDENT flags? annotation* '(' expr (',' expr)* ')' # call
    | op=('-' | '~' | '!') expr                     # unary
    | expr op=('*' | '/' | '%') expr                # binary
    | expr op=('+' | '-') expr                      # binary
    | expr op=('<<' | '>>') expr                    # binary
    | expr op='&' expr                              # binary
    | expr op='^' expr                              # binary
    | expr op='|' expr                              # binary
    | expr op=('<' | '<=' | '>' | '>=') expr        # binary
    | expr op=('==' | '!=') expr                    # binary
    | CONSTVAR                                      # constVar
    | IDENT                                         # var
    | literal                                       # lit
    | '(' expr ')'                                  # paren
    ;

annotation: '@' (INT | IDENT) ;
// fadd[nsz, nnan](…): the flags the matched instruction must carry (AluFlag)
flags     : '[' IDENT (',' IDENT)* ']' ;
literal   : INT | HEX | FLOAT | 'inf' | 'nan' | 'true' | 'false' ;
// defined last: its '(' and ')' would otherwise number before ',' and reorder "expected" lists
approximation : attr=IDENT '(' bound=(INT | FLOAT) unit=IDENT ')' ;

ARROW         : '=>' ;
INEXACT_ARROW : '~=>' ;
REASSOC_ARROW : '~~>' ;
CONSTVAR      : '#' [a-zA-Z_] [a-zA-Z0-9_]* ;
HEX           : '0' [xX] [0-9a-fA-F]+ ;
FLOAT         : [0-9]+ '.' [0-9]* EXP? | [0-9]+ EXP ;
INT           : [0-9]+ ;
IDENT         : [a-zA-Z_] [a-zA-Z0-9_]* ;
// A digit run glued to letters, dots or underscores that is not a number (0x, 1e, 1.0.0,
// 0x1_0000): one token, so the error names the whole thing. Longer than INT/FLOAT/HEX only
// when it is malformed; on a tie the rules above win.
BAD_NUMBER    : [0-9] [0-9a-zA-Z_.]* ;
fragment EXP  : [eE] [+-]? [0-9]+ ;

// '#' followed by a name is a constant-only variable; otherwise it starts a comment, as '//' does.
HASH_COMMENT  : '#' ~[a-zA-Z_\r\n] ~[\r\n]* -> channel(HIDDEN) ;
LONE_HASH     : '#' -> skip ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
// Hidden rather than skipped: a comment closed early by a nested '/*' is named in the error.
BLOCK_COMMENT : '/*' .*? '*/' -> channel(HIDDEN) ;
// A '/*' with no '*/' after it: the body cannot contain '*/', so this is longer than
// BLOCK_COMMENT only when the comment is never closed. Reported, then ignored.
UNTERMINATED_COMMENT : '/*' ( ~'*' | '*'+ ~[*/] )* '*'* -> channel(HIDDEN) ;
WS            : [ \t\r\n\f\u000B]+ -> skip ; // form feed and vertical tab too, as in C
BAD_CHAR      : . ;
