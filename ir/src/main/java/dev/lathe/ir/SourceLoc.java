package dev.lathe.ir;

/** A position in a text file (1-based line and column), kept on parsed instructions for diagnostics. */
public record SourceLoc(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
