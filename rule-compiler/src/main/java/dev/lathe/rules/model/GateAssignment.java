package dev.lathe.rules.model;

import dev.lathe.ir.Stage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A target and a shader on which a rule's gates hold: the options set, the stage and the float
 * controls. Tools that run a rule on a program made for it (the firing check) build that program
 * here. Found by trying every assignment of the few atoms the gates name, fewest set first.
 *
 * @param options       the options to set
 * @param stage         the shader's stage
 * @param floatControls the float controls the shader asks for
 */
public record GateAssignment(Set<String> options, Stage stage, Set<String> floatControls) {
    /** The most atoms (options and float controls) tried exhaustively. */
    private static final int MAX_ATOMS = 16;

    /** An assignment satisfying every clause, or null when none does with one of Lathe's stages. */
    public static GateAssignment satisfying(List<GateClause> clauses) {
        List<GateLiteral> atoms = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (GateClause c : clauses)
            for (GateLiteral l : c.any())
                if (l.kind() != GateLiteral.Kind.STAGE && seen.add(l.kind() + ":" + l.name()))
                    atoms.add(new GateLiteral(l.kind(), l.name(), false));
        if (atoms.size() > MAX_ATOMS) return null;
        // fragment first: the stage a made-up program runs in when the gates do not care
        List<Stage> stages = new ArrayList<>(List.of(Stage.FRAGMENT));
        for (Stage s : Stage.values()) if (s != Stage.FRAGMENT) stages.add(s);
        for (int ones = 0; ones <= atoms.size(); ones++) {
            for (long mask = 0; mask < 1L << atoms.size(); mask++) {
                if (Long.bitCount(mask) != ones) continue;
                for (Stage stage : stages) {
                    Set<String> options = new HashSet<>(), floatControls = new HashSet<>();
                    for (int i = 0; i < atoms.size(); i++) {
                        if ((mask >> i & 1) == 0) continue;
                        GateLiteral a = atoms.get(i);
                        (a.kind() == GateLiteral.Kind.OPTION ? options : floatControls).add(a.name());
                    }
                    GateAssignment g = new GateAssignment(Set.copyOf(options), stage, Set.copyOf(floatControls));
                    if (clauses.stream().allMatch(g::holds)) return g;
                }
            }
        }
        return null;
    }

    /** True when some literal of {@code clause} holds here. */
    public boolean holds(GateClause clause) {
        for (GateLiteral l : clause.any()) {
            boolean set = switch (l.kind()) {
                case OPTION -> options.contains(l.name());
                case STAGE -> stage.spelling().equals(l.name());
                case FLOAT_CONTROLS -> floatControls.contains(l.name());
            };
            if (set != l.negated()) return true;
        }
        return false;
    }
}
