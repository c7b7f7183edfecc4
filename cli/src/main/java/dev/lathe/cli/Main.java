package dev.lathe.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code lathe} command. Every failure the user can cause (bad files, bad arguments) ends
 * with a message and a non-zero exit code, never a stack trace.
 */
@Command(
        name = "lathe",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Lathe: a rewrite-rule optimizer framework for an SSA shader IR.")
public final class Main implements Runnable {
    /**
     * The subcommands by name, in the order help lists them. picocli builds a command's model
     * from its annotations by reflection when the command is added; building all fifteen took
     * about 70 ms of a 0.3 s cold {@code lathe compile}, so a command line naming one of them
     * builds only that one (see {@link #execute}).
     */
    static final Map<String, Supplier<Object>> COMMANDS = commands();

    private static Map<String, Supplier<Object>> commands() {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("ops", OpsCommand::new);
        m.put("print", PrintCommand::new);
        m.put("validate", ValidateCommand::new);
        m.put("run", RunCommand::new);
        m.put("opt", OptCommand::new);
        m.put("analyze", AnalyzeCommand::new);
        m.put("rules", RulesCommand::new);
        m.put("compile", CompileCommand::new);
        m.put("asm", AsmCommand::new);
        m.put("disasm", DisasmCommand::new);
        m.put("sim", SimCommand::new);
        m.put("shaderdb", ShaderDbCommand::new);
        m.put("report", ReportCommand::new);
        m.put("fuzz", FuzzCommand::new);
        m.put("vulkan-devices", VulkanDevicesCommand::new);
        m.put("help", CommandLine.HelpCommand::new);
        return Collections.unmodifiableMap(m);
    }

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

    /**
     * Runs the command {@code args} name and returns its exit code. When the first argument
     * names a command, that command alone is the root, named {@code lathe NAME} (messages and
     * help read the same), and runs on the rest; for {@code --version} the root alone; otherwise
     * (help, a mistake) the root is {@code lathe} with every command under it.
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        Supplier<Object> named = args.length > 0 && !"help".equals(args[0]) ? COMMANDS.get(args[0]) : null;
        int code;
        if (named != null) {
            CommandLine cl = new CommandLine(named.get());
            cl.setCommandName("lathe " + args[0]);
            code = withHandlers(cl, out, err).execute(Arrays.copyOfRange(args, 1, args.length));
        } else {
            CommandLine cl = new CommandLine(new Main());
            if (!(args.length == 1
                    && (args[0].equals("--version") || args[0].equals("-V")))) { // the version needs no command
                // Each as its own CommandLine: picocli applies model transformers (MachineSwitches's
                // --no-NAME options) only to command lines built by the caller, not to bare objects.
                for (Map.Entry<String, Supplier<Object>> e : COMMANDS.entrySet())
                    cl.addSubcommand(e.getKey(), new CommandLine(e.getValue().get()));
            }
            code = withHandlers(cl, out, err).execute(args);
        }
        out.flush();
        err.flush();
        return code;
    }

    /** {@code cl} (with its commands already added) writing to {@code out} and {@code err}, with Lathe's error handling. */
    private static CommandLine withHandlers(CommandLine cl, PrintWriter out, PrintWriter err) {
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
        cl.setParameterExceptionHandler((ex, unused) -> {
            CommandLine cmd = ex.getCommandLine();
            cmd.getErr().println("lathe: " + ex.getMessage());
            cmd.getErr().println("(see: " + cmd.getCommandSpec().qualifiedName() + " --help)");
            cmd.getErr().flush();
            return 2;
        });
        return cl;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, false, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, false, StandardCharsets.UTF_8);
        System.exit(execute(out, err, args));
    }
}
