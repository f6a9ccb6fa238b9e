#ifndef XMPP_TOOLS_CPANGOCAIRO_SHIM_H
#define XMPP_TOOLS_CPANGOCAIRO_SHIM_H
/* Pango lays out the slips' text (shaping, bidi, font fallback through fontconfig) and cairo
   draws it and the QR codes into a PDF with the fonts embedded as subsets. */
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#endif
