#include <webkit/webkit.h>

// GTK 4.8's cast macros (GTK_WINDOW, ...) expand to G_TYPE_CHECK_INSTANCE_CAST, which Swift
// cannot import; these inline functions are the same casts, checked the same way.
static inline GtkWindow *tl_gtk_window(gpointer object) { return GTK_WINDOW(object); }
static inline GtkWidget *tl_gtk_widget(gpointer object) { return GTK_WIDGET(object); }
static inline GObject *tl_g_object(gpointer object) { return G_OBJECT(object); }
