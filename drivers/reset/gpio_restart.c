// SPDX-License-Identifier: BSD-2-Clause
/*
 * "gpio-restart": the machine resets when a GPIO line goes active
 * (the Linux gpio-restart binding: gpios = <&controller pin flags>, flag
 * bit 0 = active low; inactive-delay, active-delay in ms).  The line is
 * driven inactive first, then active, so the reset sees an edge whatever
 * the line's state was.  Fills platform.reboot (cold and warm alike: the
 * line resets the whole machine).
 */
#include "drivers.h"
#include "platform.h"

#define GPIO_FLAG_ACTIVE_LOW 1u
/* The binding's default delays. */
#define GPIO_RESTART_ACTIVE_DELAY_MS   100
#define GPIO_RESTART_INACTIVE_DELAY_MS 100

static struct {
	struct gpio_line line;
	uint32_t active_delay_ms, inactive_delay_ms;
} restart;

/* Busy wait on mtime: the machine is going down, nothing else runs. */
static void delay_ms(uint32_t ms)
{
	uint64_t start, ticks;

	if (!platform.mtime || !platform.timebase_hz)
		return;
	start = *platform.mtime;
	ticks = platform.timebase_hz / 1000 * ms;
	while (*platform.mtime - start < ticks)
		;
}

static void line_set_active(bool active)
{
	restart.line.drive(&restart.line, active != restart.line.active_low);
}

static void gpio_restart_fire(void)
{
	line_set_active(false);
	delay_ms(restart.inactive_delay_ms);
	line_set_active(true);
	delay_ms(restart.active_delay_ms);
}

/* The GPIO controllers the firmware can drive, by compatible. */
static int gpio_line_lookup(const struct fdt *fdt, int controller, uint32_t pin,
			    struct gpio_line *line)
{
	return sifive_gpio_line(fdt, controller, pin, line);
}

int gpio_restart_probe(const struct fdt *fdt, int node, int parent)
{
	const uint8_t *gpios;
	uint32_t cells = 0;
	int len, controller;

	(void)parent;
	gpios = fdt_getprop(fdt, node, "gpios", &len);
	if (!gpios || len < 4)
		return -1;
	controller = fdt_find_phandle(fdt, fdt_be32(gpios));
	if (controller < 0 || fdt_prop_u32(fdt, controller, "#gpio-cells", &cells) < 0 ||
	    cells < 1 || len < (int)(4 * (1 + cells)))
		return -1;
	if (gpio_line_lookup(fdt, controller, fdt_be32(gpios + 4), &restart.line) < 0)
		return -1;
	restart.line.active_low = cells >= 2 && (fdt_be32(gpios + 8) & GPIO_FLAG_ACTIVE_LOW);
	restart.active_delay_ms = GPIO_RESTART_ACTIVE_DELAY_MS;
	restart.inactive_delay_ms = GPIO_RESTART_INACTIVE_DELAY_MS;
	fdt_prop_u32(fdt, node, "active-delay", &restart.active_delay_ms);
	fdt_prop_u32(fdt, node, "inactive-delay", &restart.inactive_delay_ms);
	platform.reboot = (struct reset_action){ .present = true, .fire = gpio_restart_fire };
	return 0;
}
