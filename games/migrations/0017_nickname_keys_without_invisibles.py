"""Key again every seat whose nickname holds characters drawn as nothing (zero-width, bidi
controls, Hangul fillers): the look-alike key now drops them, so "Hch" followed by U+3164
reads as "Hch". A seat whose new key is already another seat's in its room keeps its name,
under a key no other name can have (as in 0003)."""

from django.db import migrations


def keys_refill(apps, schema_editor):
    from games.rules.nicknames import nickname_key
    from games.rules.visible import ignorables_dropped

    Player = apps.get_model("games", "Player")
    changed = {}
    for player in Player.objects.order_by("id").only("nickname", "nickname_key").iterator():
        if ignorables_dropped(player.nickname) != player.nickname:
            key = nickname_key(player.nickname)
            if key != player.nickname_key:
                changed[player.pk] = key
    if not changed:
        return
    # Two passes: a seat's new key may be the old key of another seat being changed.
    for pk in changed:
        Player.objects.filter(pk=pk).update(nickname_key=f"#{pk}")
    for pk, key in changed.items():
        room_id = Player.objects.filter(pk=pk).values_list("room_id", flat=True).get()
        if Player.objects.filter(room_id=room_id, nickname_key=key).exists():
            key = f"{key}#{pk}"  # '#' is never in a nickname, so never in a key
        Player.objects.filter(pk=pk).update(nickname_key=key)


class Migration(migrations.Migration):
    dependencies = [("games", "0016_round_results_and_solution_lz4")]

    operations = [migrations.RunPython(keys_refill, migrations.RunPython.noop)]
