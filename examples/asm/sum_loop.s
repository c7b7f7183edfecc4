; sum_loop.s — a hand-written compute program: out[0] = 0 + 1 + … + (n-1) and out[1] = the
; reciprocal of n, showing a loop with a backward branch, the nops the ALU latency needs,
; an SFU result waited for with (ss), and a uniform in the constant file.
;
;   lathe sim examples/asm/sum_loop.s --input n=10 --buffer-size out=8 --cycles
;   @out = u32[2] (45, 1036831949)        1036831949 is 0x3dcccccd, 0.1 as f32
.shader compute workgroup_size(1, 1, 1)
.decl uniform u32 @n location=0
.decl buffer u32 @out binding=0
.slot @n 0
.slot @out 0
.local 0
.private 0
.loops 1
.code
    mov.u32u32 r0.x, 0                ; i
    mov.u32u32 r0.y, 0                ; sum
    cov.u32f32 r1.y, c0.x             ; float(n) for the reciprocal
    cmps.u32.lt p0.x, r0.x, c0.x      ; loop while i < n (n = 0: no iteration)
    (nop2)nop
    br !p0.x, #+7
    add.u32 r0.y, r0.y, r0.x          ; loop body: sum += i
    add.u32 r0.x, r0.x, 1             ;            i += 1
    (nop2)nop
    cmps.u32.lt p0.x, r0.x, c0.x
    (nop2)nop
    br p0.x, #-5
    rcp.f32 r1.x, r1.y
    mov.u32u32 r2.x, 0                ; the buffer address
    (nop3)nop
    (nop1)nop
    stg.u32.1 b0[r2.x], r0.y
    (ss)mov.u32u32 r2.y, r1.x
    (nop3)nop
    (nop2)nop
    stg.u32.1 b0[r2.x + 4], r2.y
    end
