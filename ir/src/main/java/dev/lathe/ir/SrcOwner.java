package dev.lathe.ir;

/** Something that reads SSA values: an instruction, or an {@code if} through its condition. */
public sealed interface SrcOwner permits Instr, IfNode {}
