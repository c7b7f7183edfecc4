package dev.lathe.driver.fuzz;

import java.util.List;
import java.util.SplittableRandom;

/**
 * What every target has: its name, its file extension and its seeds. A text target mutates with
 * {@link Mutations#text} and the words of its language; a binary one says its own mutation.
 */
abstract class SeededTarget implements FuzzTarget {
    private final String name, extension;
    final List<byte[]> seeds;
    private final String[] words;

    /** {@code words}: the language's words a text mutation puts in, or null for a binary target. */
    SeededTarget(String name, String extension, List<byte[]> seeds, List<String> words) {
        this.name = name;
        this.extension = extension;
        this.seeds = seeds;
        this.words = words == null ? null : words.toArray(new String[0]);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String extension() {
        return extension;
    }

    @Override
    public final List<byte[]> seeds() {
        return seeds;
    }

    @Override
    public byte[] mutate(byte[] seed, SplittableRandom r) {
        return Mutations.text(seed, r, words);
    }
}
