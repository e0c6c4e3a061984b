"""An arena entry's words compressed with lz4 rather than PostgreSQL's default pglz: a round's
end writes 2,000 players' entries of about 10 KB each at once, and pglz took most of that
write (0.5 s at 2,000 players on a 2-core machine; 0.15-0.2 s with lz4 and COPY). Only on a
PostgreSQL that has lz4 (14 and later, built with it); elsewhere nothing changes."""

from django.db import migrations

LZ4_KNOWN = (
    "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
    "AND 'lz4' = ANY(enumvals)"
)


def words_compression(method):
    def apply(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute(LZ4_KNOWN)
            if cursor.fetchone() is None:
                return
            table = schema_editor.quote_name(apps.get_model("games", "ArenaEntry")._meta.db_table)
            cursor.execute(f"ALTER TABLE {table} ALTER COLUMN words SET COMPRESSION {method}")

    return apply


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_arena_entry_ready_to_send"),
    ]

    operations = [
        migrations.RunPython(words_compression("lz4"), words_compression("pglz")),
    ]
