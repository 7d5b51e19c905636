// A third-party (not a tracker) library of the page-load benchmark.
window.benchLibraryLoads = (window.benchLibraryLoads || 0) + 1;
