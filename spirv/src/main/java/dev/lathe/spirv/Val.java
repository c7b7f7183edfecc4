package dev.lathe.spirv;

import dev.lathe.ir.Value;
import java.util.List;

/**
 * A SPIR-V value during translation: a scalar or vector is one IR value; a matrix, array or
 * struct is the list of its members' values (the IR has no aggregates, so they live only here
 * until their scalars and vectors are used).
 */
sealed interface Val {
    record Simple(Value value) implements Val {}

    record Composite(List<Val> members) implements Val {
        public Composite {
            members = List.copyOf(members);
        }
    }
}
