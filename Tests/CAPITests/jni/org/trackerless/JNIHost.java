package org.trackerless;

/**
 * What the Android guide's WebViewClient and JavaScript interface do, on a JVM: a runtime from a
 * blocklist file, a request decided, the scripts for the android bridge, a message and a load
 * counted, a bad update refused.
 *
 * usage: java -Djava.library.path=DIR org.trackerless.JNIHost TDS.json CACHE_DIR BLOCKED_URL
 */
public final class JNIHost {
    public static void main(String[] arguments) {
        String tds = arguments[0], cache = arguments[1], blocked = arguments[2];
        String site = "https://news.example/";
        long runtime = TrackerlessNative.runtimeNew(tds, null, cache, "android", "trackerless");
        long engine = TrackerlessNative.runtimeEngine(runtime);
        System.out.println("blocked: " + TrackerlessNative.decide(engine, blocked, site, null, 4, null));
        System.out.println("allowed: " + TrackerlessNative.decide(engine, "https://cdn.news.example/app.js", site, null, 4, null));
        System.out.println("refused: " + TrackerlessNative.decide(engine, blocked, site, null, 99, null));
        String scripts = TrackerlessNative.runtimeScripts(runtime);
        System.out.println("scripts: " + (scripts.contains("\"handler\":\"trackerless\"") && scripts.contains("handler.postMessage")));
        System.out.println("navigation: " + TrackerlessNative.runtimeNavigation(runtime, site));
        long stats = TrackerlessNative.runtimeStats(runtime);
        TrackerlessNative.statsCommitNavigation(stats, "tab-1", site);
        System.out.println("forged message accepted: " + TrackerlessNative.statsReceive(stats, "tab-1", "{\"secret\":\"00\"}"));
        TrackerlessNative.statsObserve(stats, "tab-1", blocked, "script", true);
        System.out.println("snapshot: " + TrackerlessNative.statsSnapshot(stats, "tab-1"));
        try {
            TrackerlessNative.runtimeUpdate(runtime, cache + "/missing-tds.json", null, "android", "trackerless");
            System.out.println("bad update applied");
        } catch (IllegalStateException error) {
            System.out.println("bad update: " + error.getMessage());
        }
        System.out.println("after: " + TrackerlessNative.decide(engine, blocked, site, null, 4, null));
        TrackerlessNative.statsFree(stats);
        TrackerlessNative.engineFree(engine);
        TrackerlessNative.runtimeFree(runtime);
    }
}
