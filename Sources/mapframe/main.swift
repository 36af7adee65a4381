import Foundation
import MapFrameCLI
#if canImport(Glibc)
import CMalloc

// A frame allocates and frees buffers of a few hundred KiB to a few MiB each (its canvas, its
// PNG): glibc would map and unmap every one, and `make bench` measured the page faults at about a
// tenth of a frame's time. Buffers up to 4 MiB (a 640x960 canvas is 2.4 MiB) come from the heap
// instead, and up to 8 MiB of free heap is kept for the next frame rather than given back.
mallopt(M_MMAP_THRESHOLD, 4 << 20)
mallopt(M_TRIM_THRESHOLD, 8 << 20)
// glibc gives each thread that allocates at once an arena of its own, and the server's event
// loops, render threads and storage threads each keep their arena's freed memory: under
// `make bench`'s cached and composited load one shared arena held the server at 96 MB rather
// than 102 (two arenas) or 109 (glibc's default, eight a core), at the same requests a second.
// A batch of frames allocates more from several threads at once, and one arena slowed it by 6%,
// so only the server shares one.
if CommandLine.arguments.dropFirst().first == "serve" {
    mallopt(M_ARENA_MAX, 1)
}
#endif

exit(await MapFrameCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
