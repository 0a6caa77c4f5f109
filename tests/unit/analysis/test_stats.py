import math

import pytest

from datasched.analysis.stats import mean_ci95, t_quantile_975


def test_single_value_has_zero_width_interval():
    ci = mean_ci95([4.0])
    assert (ci.mean, ci.low, ci.high, ci.n) == (4.0, 4.0, 4.0, 1)


def test_two_values_use_student_t_with_one_degree_of_freedom():
    ci = mean_ci95([1.0, 3.0])
    # s = sqrt(2), half width = 12.706 * sqrt(2) / sqrt(2)
    assert ci.mean == 2.0
    assert ci.half_width == pytest.approx(12.706)


def test_large_samples_fall_back_to_normal_quantile():
    assert t_quantile_975(30) == 2.042
    assert t_quantile_975(100) == 1.96
    values = [float(i % 5) for i in range(100)]
    ci = mean_ci95(values)
    sd = math.sqrt(sum((v - 2.0) ** 2 for v in values) / 99)
    assert ci.half_width == pytest.approx(1.96 * sd / 10)


def test_empty_input_is_an_error():
    with pytest.raises(ValueError):
        mean_ci95([])
