package dev.lathe.backend.sim;

/**
 * The simulated program did something the hardware would not survive or that the latency
 * rules forbid; the message names the pc ({@code hazard at pc 12 (add.f32 r0.x, r1.x, r2.x): …}).
 */
public final class SimulationException extends RuntimeException {
    public SimulationException(String message) {
        super(message);
    }
}
