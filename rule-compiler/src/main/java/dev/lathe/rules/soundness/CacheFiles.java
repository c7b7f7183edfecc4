package dev.lathe.rules.soundness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The files of the answer caches ({@link ProofCache}, {@link VerdictCache}): read whole, or
 * written whole to a temporary file and renamed into place, so that parallel writers and an
 * interrupted run leave the old answer or the new one, never half of one. A failure costs only
 * an answer computed again, so it is not an error.
 */
final class CacheFiles {
    private CacheFiles() {}

    /** The file's text, or null when there is none (or it cannot be read). */
    static String read(Path dir, String name) {
        if (dir == null) return null;
        try {
            return Files.readString(dir.resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }

    /** Writes the file whole (the directory made when missing); nothing when {@code dir} is null. */
    static void write(Path dir, String name, String text) {
        if (dir == null) return;
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "answer", ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            // Not fatal: the next run computes the answer again.
        }
    }
}
