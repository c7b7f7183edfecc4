package dev.lathe.backend.compile;

import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.LoopNode;

/**
 * How deep a block sits in the structured control flow: the loops and the {@code if}s around it
 * (the function's end block, outside the body, in none).
 */
record Nesting(int loops, int ifs) {
    static Nesting of(Block b) {
        int loops = 0, ifs = 0;
        CfList l = b.parent();
        while (l != null && l.owner() != null) {
            CfNode owner = l.owner();
            if (owner instanceof LoopNode) loops++;
            else if (owner instanceof IfNode) ifs++;
            l = owner.parent();
        }
        return new Nesting(loops, ifs);
    }

    /**
     * i965's weight of a spill or reload here ({@code brw_fs_reg_allocate.cpp}): 1, times 10 for
     * each loop around it, times 0.5 for each {@code if}.
     */
    double spillWeight() {
        return Math.pow(10, loops) * Math.pow(0.5, ifs);
    }
}
