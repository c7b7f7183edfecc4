package dev.lathe.ir;

import java.util.List;
import java.util.Locale;

/** {@code break}, {@code continue} or {@code return}: always the last instruction of its block. */
public final class JumpInstr extends Instr {
    public enum Kind {
        BREAK,
        CONTINUE,
        RETURN;

        public String spelling() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Kind kind;

    public JumpInstr(Kind kind) {
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    @Override
    public Value def() {
        return null;
    }

    @Override
    public List<Src> srcs() {
        return List.of();
    }

    @Override
    public String opName() {
        return kind.spelling();
    }

    @Override
    public boolean isRemovableWhenUnused() {
        return false;
    }
}
