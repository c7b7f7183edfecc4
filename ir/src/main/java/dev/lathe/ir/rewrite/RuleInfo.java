package dev.lathe.ir.rewrite;

/**
 * What the driver and reports know of one rule.
 *
 * @param name     the rule's name
 * @param location {@code rules/algebraic.rules:12}
 * @param text     the rule as written
 * @param exact    {@code =>} (true) or {@code ~=>} (false)
 */
public record RuleInfo(String name, String location, String text, boolean exact) {}
