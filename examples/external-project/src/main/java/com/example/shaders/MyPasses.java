package com.example.shaders;

import com.example.shaders.rules.MineRules;
import dev.lathe.ir.pass.Pass;
import dev.lathe.ir.rewrite.RewritePass;

/** The project's passes, built from its rules (src/main/rules/my.rules, generated into MineRules). */
public final class MyPasses {
    private MyPasses() {}

    /** Applies the rules of my.rules to a fixpoint. */
    public static Pass mine() {
        return new RewritePass(MineRules.INSTANCE);
    }
}
