/* A WebKitGTK 4.0/4.1 web extension for console_message_probe.py: writes each console message a
 * page sends (`console-message-sent`) to standard error as one line,
 * "trackerless-console-probe SOURCE LEVEL PAGE-URI TEXT" (SOURCE and LEVEL the numbers of
 * WebKitConsoleMessageSource and WebKitConsoleMessageLevel). Built without WebKit's headers,
 * which the roots do not hold: the few functions it calls are declared here, and resolved in
 * the web process, which has them loaded. */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

typedef void *gpointer;
typedef void (*GCallback)(void);
unsigned long g_signal_connect_data(gpointer instance, const char *signal, GCallback handler, gpointer data,
                                    gpointer destroy, int flags);
int webkit_console_message_get_source(gpointer message);
int webkit_console_message_get_level(gpointer message);
const char *webkit_console_message_get_text(gpointer message);
const char *webkit_web_page_get_uri(gpointer page);

static void put(const char *text) {
    if (text) { ssize_t written = write(2, text, strlen(text)); (void)written; }
}

static void put_number(int number) {
    char digits[16];
    int length = 0;
    if (number < 0 || number > 99) { put("?"); return; }
    if (number >= 10) digits[length++] = (char)('0' + number / 10);
    digits[length++] = (char)('0' + number % 10);
    digits[length] = 0;
    put(digits);
}

static void console_message_sent(gpointer page, gpointer message, gpointer data) {
    (void)data;
    /* One write per line would be atomic; the probe reads lines whole, and one page writes them. */
    put("trackerless-console-probe ");
    put_number(webkit_console_message_get_source(message));
    put(" ");
    put_number(webkit_console_message_get_level(message));
    put(" ");
    put(webkit_web_page_get_uri(page));
    put(" ");
    put(webkit_console_message_get_text(message));
    put("\n");
}

static void page_created(gpointer extension, gpointer page, gpointer data) {
    (void)extension;
    (void)data;
    g_signal_connect_data(page, "console-message-sent", (GCallback)console_message_sent, NULL, NULL, 0);
}

void webkit_web_extension_initialize_with_user_data(gpointer extension, gpointer user_data) {
    (void)user_data;
    g_signal_connect_data(extension, "page-created", (GCallback)page_created, NULL, NULL, 0);
}
