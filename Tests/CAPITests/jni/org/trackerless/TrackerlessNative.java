package org.trackerless;

/**
 * The native methods of Examples/Android/jni/trackerless_jni.c, declared as the Android guide's
 * Kotlin object declares them (@JvmStatic external fun), so that a JVM here calls the very
 * symbols an Android app calls.
 */
public final class TrackerlessNative {
    static { System.loadLibrary("trackerless_jni"); }

    public static native long runtimeNew(String tdsPath, String privacyConfigPath, String cacheDirectory, String bridge, String handler);
    public static native void runtimeUpdate(long runtime, String tdsPath, String privacyConfigPath, String bridge, String handler);
    public static native long runtimeEngine(long runtime);
    public static native String runtimeScripts(long runtime);
    public static native String runtimeNavigation(long runtime, String url);
    public static native void runtimeSetSiteProtection(long runtime, String host, boolean enabled);
    public static native long runtimeStats(long runtime);
    public static native void runtimeFree(long runtime);
    public static native int decide(long engine, String url, String topUrl, String frameUrl, int resourceType, String method);
    public static native void engineFree(long engine);
    public static native void statsCommitNavigation(long stats, String tab, String url);
    public static native boolean statsReceive(long stats, String tab, String message);
    public static native void statsObserve(long stats, String tab, String url, String type, boolean blocked);
    public static native String statsSnapshot(long stats, String tab);
    public static native void statsFree(long stats);
}
