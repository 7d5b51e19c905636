#include <webkit/webkit.h>

// GTK 4.8's cast macros (GTK_WINDOW, ...) expand to G_TYPE_CHECK_INSTANCE_CAST, which Swift
// cannot import; these inline functions are the same casts, checked the same way.
static inline GtkWindow *tl_gtk_window(gpointer object) { return GTK_WINDOW(object); }
static inline GtkWidget *tl_gtk_widget(gpointer object) { return GTK_WIDGET(object); }
static inline GObject *tl_g_object(gpointer object) { return G_OBJECT(object); }

// g_object_new is variadic, which Swift cannot call: a web view with its construct-only
// user content manager and network session (NULL: the default session).
static inline GtkWidget *tl_web_view_new(WebKitUserContentManager *manager, WebKitNetworkSession *session) {
    if (session)
        return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "user-content-manager", manager, "network-session", session, NULL));
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "user-content-manager", manager, NULL));
}

// The same in a given web context (NULL: the default one).
static inline GtkWidget *tl_web_view_new_in_context(WebKitUserContentManager *manager, WebKitNetworkSession *session, WebKitWebContext *context) {
    if (!context)
        return tl_web_view_new(manager, session);
    if (session)
        return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, "user-content-manager", manager, "network-session", session, NULL));
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, "user-content-manager", manager, NULL));
}

static inline GtkBox *tl_gtk_box(gpointer object) { return GTK_BOX(object); }
static inline GtkEditable *tl_gtk_editable(gpointer object) { return GTK_EDITABLE(object); }
static inline GtkSwitch *tl_gtk_switch(gpointer object) { return GTK_SWITCH(object); }
static inline GtkPaned *tl_gtk_paned(gpointer object) { return GTK_PANED(object); }
static inline GtkLabel *tl_gtk_label(gpointer object) { return GTK_LABEL(object); }
