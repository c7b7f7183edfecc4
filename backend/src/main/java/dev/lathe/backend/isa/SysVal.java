package dev.lathe.backend.isa;

/**
 * System values a {@code mov} reads (source {@code sv.NAME}): what the hardware knows about
 * the invocation. Ids and sizes are unsigned 32-bit; {@code frag_coord} components are f32;
 * {@code front_face} is 1 or 0.
 */
public enum SysVal {
    LOCAL_ID_X("local_id.x"),
    LOCAL_ID_Y("local_id.y"),
    LOCAL_ID_Z("local_id.z"),
    WORKGROUP_ID_X("workgroup_id.x"),
    WORKGROUP_ID_Y("workgroup_id.y"),
    WORKGROUP_ID_Z("workgroup_id.z"),
    NUM_WORKGROUPS_X("num_workgroups.x"),
    NUM_WORKGROUPS_Y("num_workgroups.y"),
    NUM_WORKGROUPS_Z("num_workgroups.z"),
    WORKGROUP_SIZE_X("workgroup_size.x"),
    WORKGROUP_SIZE_Y("workgroup_size.y"),
    WORKGROUP_SIZE_Z("workgroup_size.z"),
    LOCAL_INDEX("local_index"),
    FRAG_COORD_X("frag_coord.x"),
    FRAG_COORD_Y("frag_coord.y"),
    FRAG_COORD_Z("frag_coord.z"),
    FRAG_COORD_W("frag_coord.w"),
    FRONT_FACE("front_face"),
    VERTEX_ID("vertex_id"),
    INSTANCE_ID("instance_id");

    private final String text;

    SysVal(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    public static SysVal ofText(String s) {
        for (SysVal v : values()) {
            if (v.text.equals(s)) return v;
        }
        return null;
    }

    public static SysVal ofCode(int code) {
        SysVal[] all = values();
        return code >= 0 && code < all.length ? all[code] : null;
    }
}
