package dev.lathe.ir.op;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Prints how many op-table checks a test class ran ({@code @ExtendWith(CountChecks.class)}). */
public final class CountChecks implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(CountChecks.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NS).put("before", OpHarness.CHECKS.get());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        long before = context.getStore(NS).get("before", Long.class);
        OpHarness.report(context.getRequiredTestClass().getSimpleName(), before);
    }
}
