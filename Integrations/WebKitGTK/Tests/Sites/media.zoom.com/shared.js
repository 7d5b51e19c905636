// A worker script: it must never be requested.
