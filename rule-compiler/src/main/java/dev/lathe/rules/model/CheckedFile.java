package dev.lathe.rules.model;

import java.util.List;

/** A rule file that passed every check. */
public record CheckedFile(String file, String passName, List<CheckedRule> rules) {}
