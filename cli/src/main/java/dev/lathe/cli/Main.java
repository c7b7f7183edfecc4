package dev.lathe.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The {@code lathe} command. Every failure the user can cause (bad files, bad arguments) ends
 * with a message and a non-zero exit code, never a stack trace.
 */
@Command(
        name = "lathe",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Lathe: a rewrite-rule optimizer framework for an SSA shader IR.",
        subcommands = {OpsCommand.class, PrintCommand.class, ValidateCommand.class, RunCommand.class, OptCommand.class,
                AnalyzeCommand.class, RulesCommand.class, CompileCommand.class, AsmCommand.class, DisasmCommand.class, SimCommand.class,
                ShaderDbCommand.class, ReportCommand.class, FuzzCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command (try: lathe --help)");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"lathe 0.1.0"};
        }
    }

    /** Builds the command line with Lathe's error handling; tests drive it directly. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            if (ex instanceof CliException ce) {
                cmd.getErr().println(ce.getMessage());
                cmd.getErr().flush();
                return ce.exitCode();
            }
            cmd.getErr().println("lathe: internal error: " + ex);
            cmd.getErr().println("(this is a bug in lathe; set LATHE_DEBUG=1 for a stack trace)");
            if (System.getenv("LATHE_DEBUG") != null) ex.printStackTrace(cmd.getErr());
            cmd.getErr().flush();
            return 70;
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            cmd.getErr().println("lathe: " + ex.getMessage());
            cmd.getErr().println("(see: " + cmd.getCommandSpec().qualifiedName() + " --help)");
            cmd.getErr().flush();
            return 2;
        });
        return cl;
    }

    /** Runs the command and returns its exit code. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        int code = commandLine(out, err).execute(args);
        out.flush();
        err.flush();
        return code;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, false, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, false, StandardCharsets.UTF_8);
        System.exit(execute(out, err, args));
    }
}
