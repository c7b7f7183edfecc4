package dev.lathe.backend.compile;

/**
 * A pass of the backend over a {@link MachineFunction}. Its name and the forms it takes and
 * gives are its {@link dev.lathe.ir.pass.PassRegistry.Entry}'s ({@link MachinePasses#ENTRIES}),
 * said there only; a pass in the wrong place fails before anything runs.
 */
@FunctionalInterface
public interface MachinePass {
    void run(MachineFunction mf);
}
