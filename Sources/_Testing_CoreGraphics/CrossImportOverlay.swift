// Swift Testing declares a cross-import overlay for CoreGraphics (`_Testing_CoreGraphics`, its
// image attachments on Apple's platforms) in every toolchain, Linux's included, but Linux's does
// not ship the module. A file importing both Testing and a module named CoreGraphics (ours, or
// QuartzCore, which re-exports it) then fails with "no such module '_Testing_CoreGraphics'". This
// empty module is what the compiler loads instead; CoreGraphics depends on it so it is always
// built beside it. Nothing is declared here.
