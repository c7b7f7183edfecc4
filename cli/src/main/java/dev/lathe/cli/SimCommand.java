package dev.lathe.cli;

import dev.lathe.backend.program.Program;
import dev.lathe.backend.sim.SimulationException;
import dev.lathe.backend.sim.Simulator;
import dev.lathe.driver.Compiler;
import dev.lathe.ir.interp.RunValues;
import dev.lathe.ir.interp.ShaderInputs;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe sim FILE.s|FILE.bin --input …}: the simulator, with the options of {@code lathe run}. */
@Command(
        name = "sim",
        mixinStandardHelpOptions = true,
        description = {
            "Run a machine program in the simulator and print its outputs and buffers as `lathe run` does.",
            "Latency violations stop it with 'hazard at pc N'. --iteration-limit is ignored: the simulator stops "
                    + "after 50 million instructions.",
            "Example: lathe sim examples/ir/lambert.ir --input normal=0,0,1 --input light_dir=0,0.6,0.8"
        })
final class SimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "a .ir shader (compiled first), or a .s or .bin program")
    Path file;

    @Mixin
    SourceOptions source = new SourceOptions();

    @Mixin
    RunOptions run = new RunOptions();

    @Mixin
    MachineSwitches machine = new MachineSwitches();

    @Mixin
    RuleSwitches rules = new RuleSwitches();

    @Option(names = "--cycles", description = "also print the model's cycles and (ss)/(sy) stall cycles")
    boolean cycles;

    @Override
    public Integer call() {
        Program p = ProgramFiles.load(
                file,
                source,
                machine.apply(rules.apply(
                        Compiler.Options.defaults().withAllocation(machine.allocation("lathe sim")), "lathe sim")));
        try {
            ShaderInputs in = run.inputs(p.shader());
            Simulator sim = new Simulator(p);
            int[] g = run.dispatchCounts(p.shader());
            Simulator.Result r = g != null ? sim.dispatch(in, g[0], g[1], g[2]) : sim.run(in);
            spec.commandLine().getOut().print(RunValues.format(p.shader(), r.outputs(), run.hex));
            if (cycles) {
                spec.commandLine()
                        .getOut()
                        .println("cycles " + r.cycles() + ", sstall " + r.sstall() + ", systall " + r.systall()
                                + ", instructions executed " + r.instructions());
            }
            return 0;
        } catch (IllegalArgumentException e) {
            throw new CliException("lathe sim: " + e.getMessage());
        } catch (SimulationException e) {
            throw new CliException(file + ": " + e.getMessage());
        }
    }
}
