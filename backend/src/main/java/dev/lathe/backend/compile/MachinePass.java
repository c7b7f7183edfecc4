package dev.lathe.backend.compile;

/**
 * A pass of the backend: it takes the program in one form and leaves it in another (or the
 * same), see {@link MachineFunction}. The machine pipeline is a list of their names
 * ({@link MachinePasses#DEFAULT}); a pass in the wrong place fails before anything runs.
 */
public interface MachinePass {
    String name();

    /** The form the pass needs. */
    MachineFunction.Form takes();

    /** The form the pass leaves. */
    MachineFunction.Form gives();

    void run(MachineFunction mf);
}
