/* SPDX-License-Identifier: MIT */
#include "svg.h"

#include <string.h>

#include "pointcloud_load.h" /* host_path_has_suffix */
#include "tool.h"

#define SVG_PIXELS 1000.0 /* the longer side */
#define SVG_PAD 0.02      /* of the window, on each side */
#define SVG_FOOT 44.0     /* below the drawing: the legend, then the scale bar */
#define SVG_MIN_WIDTH 360.0 /* room for the scale bar and its label under a narrow drawing */

/* The file's width: the drawing's, or more for the scale bar. */
static double file_width(const svg_canvas *c)
{
    return c->width > SVG_MIN_WIDTH ? c->width : SVG_MIN_WIDTH;
}

/* Text with the characters XML gives a meaning replaced, so any file name can be a title. */
static void put_text(FILE *f, const char *text)
{
    for (; *text != '\0'; text++)
        if (*text == '<')
            fputs("&lt;", f);
        else if (*text == '>')
            fputs("&gt;", f);
        else if (*text == '&')
            fputs("&amp;", f);
        else
            fputc(*text, f);
}

int svg_begin(svg_canvas *c, const char *path, const float *lo, const float *hi, const char *title,
              unsigned levels)
{
    double w = (double)hi[0] - (double)lo[0], h = (double)hi[1] - (double)lo[1], m = w > h ? w : h;
    unsigned a;
    if (m <= 0.0)
        m = 1.0;
    for (a = 0; a < 2; a++) {
        c->lo[a] = (float)((double)lo[a] - SVG_PAD * m);
        c->hi[a] = (float)((double)hi[a] + SVG_PAD * m);
    }
    c->scale = SVG_PIXELS / (m * (1.0 + 2.0 * SVG_PAD));
    c->width = ((double)c->hi[0] - (double)c->lo[0]) * c->scale;
    c->height = ((double)c->hi[1] - (double)c->lo[1]) * c->scale;
    c->unit = "units";
    c->f = fopen(path, "w");
    if (c->f == NULL)
        return tool_fail("%s: cannot write", path);
    fprintf(c->f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.1f %.1f\">\n"
            "<title>",
            file_width(c), c->height + SVG_FOOT, file_width(c), c->height + SVG_FOOT);
    put_text(c->f, title);
    fprintf(c->f, "</title>\n<style>\n");
    for (a = 1; a <= levels; a++) {
        /* hue from red (root) round to violet (deepest); deeper cells thinner */
        unsigned hue = levels > 1 ? 300u * (a - 1u) / (levels - 1u) : 0u;
        fprintf(c->f, ".l%u{fill:none;stroke:hsl(%u,80%%,40%%);stroke-width:%.1f}\n", a, hue,
                a < 8u ? 2.4 - 0.3 * (double)a : 0.3);
    }
    fprintf(c->f, "</style>\n<g fill=\"#c8c8c8\" fill-opacity=\"0.6\" stroke=\"#909090\" stroke-width=\"0.3\">\n");
    return 0;
}

static double px(const svg_canvas *c, float x)
{
    return ((double)x - (double)c->lo[0]) * c->scale;
}

static double py(const svg_canvas *c, float y) /* second axis up */
{
    return ((double)c->hi[1] - (double)y) * c->scale;
}

void svg_polygon(svg_canvas *c, const float *xy, unsigned n)
{
    unsigned k;
    fprintf(c->f, "<polygon points=\"");
    for (k = 0; k < n; k++)
        fprintf(c->f, "%s%.1f,%.1f", k ? " " : "", px(c, xy[2u * k]), py(c, xy[2u * k + 1u]));
    fprintf(c->f, "\"/>\n");
}

void svg_rect(svg_canvas *c, const float *lo, const float *hi, unsigned level)
{
    fprintf(c->f, "<rect class=\"l%u\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", level, px(c, lo[0]),
            py(c, hi[1]), ((double)hi[0] - (double)lo[0]) * c->scale, ((double)hi[1] - (double)lo[1]) * c->scale);
}

void svg_point(svg_canvas *c, float x, float y)
{
    fprintf(c->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"0.6\"/>\n", px(c, x), py(c, y));
}

/* The longest round length (1, 2 or 5 times a power of ten world units) that is at most
 * `pixels` long: between 0.4 and 1 times it. */
static double round_length(double scale, double pixels)
{
    double step = 1.0, want = pixels / scale;
    while (step > want)
        step /= 10.0;
    while (step * 10.0 <= want)
        step *= 10.0;
    return 5.0 * step <= want ? 5.0 * step : 2.0 * step <= want ? 2.0 * step : step;
}

static void scale_bar(svg_canvas *c)
{
    const double length = round_length(c->scale, 200.0), px = length * c->scale, x0 = 8.0, y = c->height + 34.0;
    fprintf(c->f,
            "<g id=\"scale-bar\" stroke=\"#000000\" stroke-width=\"1.5\">\n"
            "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>\n"
            "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>\n"
            "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>\n</g>\n",
            x0, y, x0 + px, y, x0, y - 4.0, x0, y + 4.0, x0 + px, y - 4.0, x0 + px, y + 4.0);
    fprintf(c->f, "<text id=\"scale-label\" x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"11\">%g %s</text>\n",
            x0 + px + 6.0, y + 4.0, length, length == 1.0 && strcmp(c->unit, "units") == 0 ? "unit" : c->unit);
}

int svg_end(svg_canvas *c, const char *legend)
{
    int bad;
    fprintf(c->f, "</g>\n<text x=\"4\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"11\">%s</text>\n",
            c->height + 17.0, legend);
    scale_bar(c);
    fprintf(c->f, "</svg>\n");
    bad = ferror(c->f);
    if (fclose(c->f) != 0 || bad)
        return tool_fail("write error on the SVG");
    return 0;
}

int tool_svg_target(const tool_opts *opts)
{
    return opts->output != NULL && host_path_has_suffix(opts->output, ".svg") ? 0
                                                                             : tool_usage("svg needs -o FILE.svg");
}

int tool_plane_axes(const tool_opts *opts, unsigned ax[2])
{
    if (strcmp(opts->plane, "xz") == 0)
        ax[0] = 0, ax[1] = 2;
    else if (strcmp(opts->plane, "xy") == 0)
        ax[0] = 0, ax[1] = 1;
    else if (strcmp(opts->plane, "yz") == 0)
        ax[0] = 1, ax[1] = 2;
    else
        return tool_usage("--plane %s: expected xz, xy or yz", opts->plane);
    return 0;
}
