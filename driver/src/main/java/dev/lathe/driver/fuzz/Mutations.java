package dev.lathe.driver.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Mutations of text and of words, shared by the targets. Text mutations work on what a person
 * might get wrong or a tool might produce: characters, lines, numbers (replaced by edge values),
 * names (replaced by another name of the same input or of the language), nesting.
 */
final class Mutations {
    private Mutations() {}

    static final String[] EDGE_NUMBERS = {
        "0",
        "-0",
        "1",
        "-1",
        "2",
        "7",
        "8",
        "15",
        "16",
        "31",
        "32",
        "33",
        "63",
        "64",
        "65",
        "127",
        "128",
        "255",
        "256",
        "1024",
        "65535",
        "65536",
        "2147483647",
        "2147483648",
        "-2147483648",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "18446744073709551615",
        "99999999999999999999999",
        "0x7fc00000",
        "0xffffffff",
        "0x8000000000000000",
        "1.0",
        "-0.0",
        "0.5",
        "1e38",
        "1e-45",
        "1e309",
        "inf",
        "-inf",
        "nan",
        "3.4028235e38",
        "65504.0",
        "1e-300"
    };

    static final String[] ODD_CHARACTERS = {
        "\u0000",
        "\t",
        "\r",
        "\u00a0",
        "\u200b",
        "é",
        "€",
        "\ud83d\ude00",
        "\u2028",
        "\\",
        "\"",
        "'",
        "`",
        "#",
        "@",
        "%",
        "$",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ",",
        ";",
        ":",
        ".",
        "=",
        ">",
        "<",
        "~",
        "!",
        "&",
        "|",
        "^",
        "*",
        "/",
        "-",
        "+",
        "\n"
    };

    private static final Pattern NUMBER = Pattern.compile("-?(0x[0-9a-fA-F]+|[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?)");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** One to four text mutations; {@code words} are names of the language to put in (op names, keywords). */
    static byte[] text(byte[] seed, SplittableRandom r, String[] words) {
        String s = new String(seed, StandardCharsets.UTF_8);
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) s = once(s, r, words);
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String once(String s, SplittableRandom r, String[] words) {
        if (s.isEmpty()) return words[r.nextInt(words.length)];
        List<String> lines = new ArrayList<>(List.of(s.split("\n", -1)));
        int at = r.nextInt(s.length());
        switch (r.nextInt(12)) {
            case 0 -> { // delete a character
                return s.substring(0, at) + s.substring(at + 1);
            }
            case 1 -> { // insert an odd character
                return s.substring(0, at) + ODD_CHARACTERS[r.nextInt(ODD_CHARACTERS.length)] + s.substring(at);
            }
            case 2 -> { // delete a line
                lines.remove(r.nextInt(lines.size()));
                return String.join("\n", lines);
            }
            case 3 -> { // duplicate a line
                int k = r.nextInt(lines.size());
                lines.add(k, lines.get(k));
                return String.join("\n", lines);
            }
            case 4 -> { // swap two lines
                int a = r.nextInt(lines.size()), b = r.nextInt(lines.size());
                String t = lines.get(a);
                lines.set(a, lines.get(b));
                lines.set(b, t);
                return String.join("\n", lines);
            }
            case 5, 6 -> { // a number becomes an edge value
                List<int[]> spans = spans(NUMBER, s);
                if (spans.isEmpty()) return s;
                int[] sp = spans.get(r.nextInt(spans.size()));
                return s.substring(0, sp[0]) + EDGE_NUMBERS[r.nextInt(EDGE_NUMBERS.length)] + s.substring(sp[1]);
            }
            case 7, 8 -> { // a name becomes another name of the input
                List<int[]> spans = spans(NAME, s);
                if (spans.isEmpty()) return s;
                int[] sp = spans.get(r.nextInt(spans.size())), other = spans.get(r.nextInt(spans.size()));
                return s.substring(0, sp[0]) + s.substring(other[0], other[1]) + s.substring(sp[1]);
            }
            case 9 -> { // a name becomes a word of the language
                List<int[]> spans = spans(NAME, s);
                if (spans.isEmpty()) return s;
                int[] sp = spans.get(r.nextInt(spans.size()));
                return s.substring(0, sp[0]) + words[r.nextInt(words.length)] + s.substring(sp[1]);
            }
            case 10 -> { // copy a span of text elsewhere
                int from = r.nextInt(s.length()), len = Math.min(s.length() - from, 1 + r.nextInt(40));
                return s.substring(0, at) + s.substring(from, from + len) + s.substring(at);
            }
            default -> { // delete a span of text
                int len = Math.min(s.length() - at, 1 + r.nextInt(40));
                return s.substring(0, at) + s.substring(at + len);
            }
        }
    }

    private static List<int[]> spans(Pattern p, String s) {
        List<int[]> out = new ArrayList<>();
        Matcher m = p.matcher(s);
        while (m.find()) out.add(new int[] {m.start(), m.end()});
        return out;
    }

    static final int[] EDGE_WORDS = {
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        15,
        16,
        31,
        32,
        63,
        64,
        127,
        128,
        255,
        256,
        1024,
        0xffff,
        0x10000,
        0x7fffffff,
        0x80000000,
        0xffffffff,
        0xfffffffe,
        0x7fc00000,
        0x3f800000
    };

    /** One to three changes to little-endian 32-bit words past the first {@code keep} (a header); the length stays. */
    static byte[] words(byte[] seed, SplittableRandom r, int keep) {
        byte[] b = seed.clone();
        int count = b.length / 4;
        if (count <= keep) return b;
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            int w = keep + r.nextInt(count - keep);
            int old = word(b, w);
            int v = switch (r.nextInt(6)) {
                case 0 -> old ^ (1 << r.nextInt(32)); // one bit
                case 1 -> old + (r.nextBoolean() ? 1 : -1); // a neighbour (another id, a count one off)
                case 2 -> EDGE_WORDS[r.nextInt(EDGE_WORDS.length)];
                case 3 -> word(b, keep + r.nextInt(count - keep)); // another word of the module
                case 4 -> old & 0xffff | r.nextInt(1 << 16) << 16; // the word count of an instruction
                default -> r.nextInt();
            };
            setWord(b, w, v);
        }
        return b;
    }

    /** One to three bit flips in {@code bytes}, past the first {@code keep} bytes. */
    static byte[] bits(byte[] seed, SplittableRandom r, int keep) {
        byte[] b = seed.clone();
        if (b.length <= keep) return b;
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            int at = keep + r.nextInt(b.length - keep);
            b[at] ^= (byte) (1 << r.nextInt(8));
        }
        return b;
    }

    static int word(byte[] b, int w) {
        return b[4 * w] & 0xff | (b[4 * w + 1] & 0xff) << 8 | (b[4 * w + 2] & 0xff) << 16 | (b[4 * w + 3] & 0xff) << 24;
    }

    static void setWord(byte[] b, int w, int v) {
        for (int k = 0; k < 4; k++) b[4 * w + k] = (byte) (v >>> (8 * k));
    }
}
