package dev.lathe.ir.interp;

import dev.lathe.ir.Function;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;

/** One invocation of the interpreter as a {@link Shadow} reads it: values, memory, inputs. */
public interface RunState {
    /** The function that runs. */
    Function function();

    /** The bits of {@code v}, one long per component. */
    long[] read(Value v);

    /** What the run was given. */
    ShaderInputs inputs();

    /** The bytes of buffer {@code v} (shared by a dispatch), or null. */
    byte[] buffer(Variable v);

    /** The device memory that {@code load_global}/{@code store_global} address (the buffers given addresses). */
    byte[] deviceMemory();

    /** The storage of local {@code v}: its components, element after element. */
    long[] local(Variable v);

    /** The storage of workgroup variable {@code v}. */
    long[] shared(Variable v);

    /** This invocation's workgroup, as one number. */
    int workgroupIndex();

    /** The texel index of integer coordinates in storage image {@code v}, or -1 outside it. */
    long imageTexel(Variable v, long[] coord);

    /** Element {@code index} of texture {@code v} (the last one past an array's end), as given. */
    Texture texture(Variable v, long index);
}
