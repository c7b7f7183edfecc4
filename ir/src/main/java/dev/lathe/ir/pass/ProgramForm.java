package dev.lathe.ir.pass;

/**
 * The forms a program goes through from the IR to machine code, in order. Every pass of the
 * {@link PassRegistry} says which form it takes and which it gives, so that a pipeline putting a
 * pass where its form is not is refused before anything runs. The IR passes take and give
 * {@link #IR}; the backend's passes carry the program on to {@link #LINEAR}.
 */
public enum ProgramForm {
    /** The IR of this module (a shader's functions). */
    IR,
    /** Machine instructions over virtual registers (SSA), per IR block, the structured control flow kept. */
    VIRTUAL,
    /** Machine instructions over the target's registers, per IR block. */
    ALLOCATED,
    /** Straight-line machine code with labels. */
    LINEAR;

    /** The form's name as messages spell it ("allocated"). */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
